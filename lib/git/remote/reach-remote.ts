import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config";
import { SSH_BASE } from "@/lib/git/git-environment";
import type { RemoteAccess } from "@/lib/git/remote-access";
import { resolveTarget } from "@/lib/net/guard-address";
import { bracketed, parseRemoteUrl } from "@/lib/repositories/remote-url";
import { DEFAULT_TOKEN_USERNAME, type RepositoryCredential } from "@/lib/repositories/repository-credential";

// How git reaches a workspace repository's remote (not the GitHub App's, lib/git/remote/github-remote.ts):
// the host is resolved and every address checked by the same guard as webhooks (private, loopback
// and link-local refused unless REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true), and git is made to
// connect to the checked address, so a DNS answer that changes in between (rebinding) cannot move
// it: for http(s) curl's resolve list (http.curloptResolve), for ssh the HostName option with the
// name kept as HostKeyAlias. Host keys are trusted on first use per workspace (its known_hosts in
// DATA_DIR/ssh). The only credential is the workspace's own: a token as an Authorization header, a
// deploy key for ssh, each written to a private file for one git command and removed after it
// (lib/git/remote-access.ts). Neither is ever in the URL, in argv or in git's environment.

/** REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true lets remotes be on loopback and private addresses (local development). */
export function allowPrivateRepositoryAddresses(): boolean {
  return process.env.REPOSITORIES_ALLOW_PRIVATE_ADDRESSES === "true";
}

export interface ReachedRemote {
  url: string;
  access: RemoteAccess;
}

/** Throws the guard's ForbiddenAddressError for a refused address, or an Error when the host does not resolve. */
export async function reachRemote(workspaceId: string, url: string, credential: RepositoryCredential | null): Promise<ReachedRemote> {
  const remote = parseRemoteUrl(url);
  if (!remote) throw new Error("The repository URL is not one the server accepts");
  if (remote.transport === "local") return { url, access: { config: [] } };
  const target = await resolveTarget(remote.host, allowPrivateRepositoryAddresses(), "REPOSITORIES_ALLOW_PRIVATE_ADDRESSES");
  const access: RemoteAccess = { config: [] };
  if (remote.transport === "http") {
    access.config.push(["http.curloptResolve", `${bracketed(remote.host)}:${remote.port}:${bracketed(target.address)}`]);
    if (credential?.type === "access_token") {
      const basic = Buffer.from(`${credential.username ?? DEFAULT_TOKEN_USERNAME}:${credential.token}`).toString("base64");
      access.secretConfig = [[`http.${new URL(url).origin}/.extraHeader`, `Authorization: Basic ${basic}`]];
    }
  } else {
    access.config.push(["ssh.variant", "ssh"]);
    const options = [
      `-o HostName=${target.address}`,
      `-o HostKeyAlias=${remote.host}`,
      `-o UserKnownHostsFile=${quote(knownHostsFile(workspaceId))}`,
      "-o StrictHostKeyChecking=accept-new",
    ].join(" ");
    if (credential?.type === "deploy_key") {
      access.sshCommand = `${SSH_BASE} ${options}`;
      access.sshKey = credential.private_key;
    } else {
      access.sshCommand = `${SSH_BASE} ${options} -o IdentityFile=none`;
    }
  }
  return { url, access };
}

/** Host keys the workspace's remotes presented first (trust on first use). */
export function knownHostsFile(workspaceId: string): string {
  const dir = path.join(dataDir(), "ssh", workspaceId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, "known_hosts");
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
