import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config";
import { gitEnvironment, SSH_BASE, type RemoteGitSetup } from "@/lib/git/git-environment";
import { resolveTarget } from "@/lib/net/guard-address";
import { bracketed, parseRemoteUrl } from "@/lib/repositories/remote-url";
import { DEFAULT_TOKEN_USERNAME, type RepositoryCredential } from "@/lib/repositories/repository-credential";

// How git reaches a workspace repository's remote (not the GitHub App's, lib/git/remote/github-remote.ts):
// the host is resolved and every address checked by the same guard as webhooks (private, loopback
// and link-local refused unless REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true), and git is made to
// connect to the checked address, so a DNS answer that changes in between (rebinding) cannot move
// it: for http(s) curl's resolve list (http.curloptResolve), for ssh the HostName option with the
// name kept as HostKeyAlias. Host keys are trusted on first use per workspace (its known_hosts in
// DATA_DIR/ssh). The only credential is the workspace's own: a token as an Authorization header in
// git's environment-only configuration, a deploy key handed to ssh through a private temporary file
// that lives as long as the ssh process. Neither is ever in the URL or in argv.

/** REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true lets remotes be on loopback and private addresses (local development). */
export function allowPrivateRepositoryAddresses(): boolean {
  return process.env.REPOSITORIES_ALLOW_PRIVATE_ADDRESSES === "true";
}

export interface ReachedRemote {
  url: string;
  env: Record<string, string>;
}

/** Throws the guard's ForbiddenAddressError for a refused address, or an Error when the host does not resolve. */
export async function reachRemote(workspaceId: string, url: string, credential: RepositoryCredential | null): Promise<ReachedRemote> {
  const remote = parseRemoteUrl(url);
  if (!remote) throw new Error("The repository URL is not one the server accepts");
  if (remote.transport === "local") return { url, env: gitEnvironment() };
  const target = await resolveTarget(remote.host, allowPrivateRepositoryAddresses(), "REPOSITORIES_ALLOW_PRIVATE_ADDRESSES");
  const setup: RemoteGitSetup = { config: [] };
  if (remote.transport === "http") {
    setup.config!.push(["http.curloptResolve", `${bracketed(remote.host)}:${remote.port}:${bracketed(target.address)}`]);
    if (credential?.type === "access_token") {
      const basic = Buffer.from(`${credential.username ?? DEFAULT_TOKEN_USERNAME}:${credential.token}`).toString("base64");
      setup.config!.push([`http.${new URL(url).origin}/.extraHeader`, `Authorization: Basic ${basic}`]);
    }
  } else {
    setup.config!.push(["ssh.variant", "ssh"]);
    const options = [
      `-o HostName=${target.address}`,
      `-o HostKeyAlias=${remote.host}`,
      `-o UserKnownHostsFile=${quote(knownHostsFile(workspaceId))}`,
      "-o StrictHostKeyChecking=accept-new",
    ].join(" ");
    if (credential?.type === "deploy_key") {
      setup.env = { TASKBOARD_SSH_KEY: credential.private_key.replace(/\r\n/g, "\n").trimEnd() };
      // git runs this with the shell and appends "$@" (the host and git's command).
      setup.sshCommand = `tb_ssh() { umask 077; k=$(mktemp) || return 1; printf '%s\\n' "$TASKBOARD_SSH_KEY" > "$k"; ${SSH_BASE} ${options} -i "$k" "$@"; s=$?; rm -f "$k"; return $s; }; tb_ssh`;
    } else {
      setup.sshCommand = `${SSH_BASE} ${options} -o IdentityFile=none`;
    }
  }
  return { url, env: gitEnvironment(setup) };
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
