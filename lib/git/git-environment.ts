import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config";

// The one environment every git command of the server runs in (docs/SECURITY.md, R4). Git talking
// to a remote must never use the server user's own credentials: not its credential helpers, not its
// SSH agent or keys, not its ~/.gitconfig or /etc/gitconfig (which could name a helper, a proxy
// command or a URL rewrite), and never prompt. So git starts from a short list of harmless
// variables (PATH, locale, time zone, temp directory, proxies), with HOME pointing at an empty
// directory of the server's, no system or global configuration, no credential helper, no redirects
// (a redirect's target was never checked by the address guard), and ssh with no configuration file,
// no agent and no identity but the one a workspace stores. The only credentials are those a remote
// adds (lib/git/remote/reach-remote.ts, lib/git/remote/github-remote.ts): as git configuration entries in
// the environment (GIT_CONFIG_COUNT/KEY/VALUE), never in a URL or in argv, which `ps` shows.

const KEEP = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"];
// Proxies are the administrator's network set-up; with one, the proxy resolves the host (see docs/SECURITY.md).
const PROXIES = ["http_proxy", "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY"];

/** ssh as git runs it: no config file, agent, default keys, passwords or proxy commands; options added per remote. */
export const SSH_BASE = [
  "ssh",
  "-F /dev/null",
  "-o BatchMode=yes",
  "-o IdentitiesOnly=yes",
  "-o IdentityAgent=none",
  "-o PasswordAuthentication=no",
  "-o KbdInteractiveAuthentication=no",
  "-o ProxyCommand=none",
  "-o ProxyJump=none",
  "-o PermitLocalCommand=no",
  "-o GlobalKnownHostsFile=/dev/null",
].join(" ");
/** Without a workspace's deploy key and known hosts: no identity, and no host is trusted. */
const SSH_NO_IDENTITY = `${SSH_BASE} -o IdentityFile=none -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes`;

/** Configuration every git command gets, before a remote's own entries. */
const BASE_CONFIG: [string, string][] = [
  // An empty value empties the list of helpers (repository configuration included).
  ["credential.helper", ""],
  ["core.askPass", ""],
  ["http.followRedirects", "false"],
];

export interface RemoteGitSetup {
  /** git configuration entries for this remote (a pinned address, an Authorization header). */
  config?: [string, string][];
  /** The ssh command line for this remote (pin, known hosts, deploy key); SSH_BASE-derived. */
  sshCommand?: string;
  /** Other variables the ssh command needs (the deploy key, handed over in the environment). */
  env?: Record<string, string>;
}

/** An empty directory for HOME: nothing the server user keeps in its own home is seen by git. */
export function gitHome(): string {
  const home = path.join(dataDir(), "git-home");
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

/** The complete environment of one git command; with `remote`, that remote's entries added. */
export function gitEnvironment(remote: RemoteGitSetup = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...KEEP, ...PROXIES]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const home = gitHome();
  const config = [...BASE_CONFIG, ...(remote.config ?? [])];
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: remote.sshCommand ?? SSH_NO_IDENTITY,
    GIT_CONFIG_COUNT: String(config.length),
    ...remote.env,
  });
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * simple-git's options for running with `env`: its environment guard removes every ambient GIT_*
 * variable and refuses explicit ones it is not told about, so the names of ours are listed, and the
 * checks for configuration it deems risky (config in the environment, an ssh command, an emptied
 * credential helper) are lifted for what this module itself set.
 */
export function gitOptions(env: Record<string, string>) {
  return {
    allowEnvironment: Object.keys(env),
    unsafe: {
      allowUnsafeConfigEnvCount: true,
      allowUnsafeConfigPaths: true,
      allowUnsafeSshCommand: true,
      allowUnsafeCredentialHelper: true,
      allowUnsafeAskPass: true,
    },
  };
}
