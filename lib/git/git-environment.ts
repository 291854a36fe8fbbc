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
// no agent and no identity but the one a workspace stores. No secret is ever in it: the only
// credentials are those a remote adds (lib/git/remote/reach-remote.ts, lib/git/remote/github-remote.ts),
// written to private files for one command and named on its command line (lib/git/remote-access.ts).
// What is checked before git runs, and what its command line overrides: lib/git/worktree-guard.ts.

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

/** An empty directory for HOME: nothing the server user keeps in its own home is seen by git. */
export function gitHome(): string {
  const home = path.join(dataDir(), "git-home");
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

/** The complete environment of one git command (a remote's pin and credentials come on its command line: lib/git/remote-access.ts). */
export function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...KEEP, ...PROXIES]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const home = gitHome();
  const config = BASE_CONFIG;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: SSH_NO_IDENTITY,
    GIT_CONFIG_COUNT: String(config.length),
  });
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
