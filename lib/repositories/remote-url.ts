import net from "node:net";

// What a repository URL names, for the address guard and for deciding which credential fits it.
// Accepted: https:// and http:// (an access token), ssh:// and scp-like user@host:path (a deploy
// key), and, for administrators, a path on the server or file://. Not accepted: git:// (neither
// authenticated nor encrypted, and git gives no way to pin its address), transports that run
// programs (ext::, fd::), anything starting with "-" (git would read it as an option), and
// credentials inside the URL (they would be stored and shown: store them as the credential).

export type Transport = "http" | "ssh" | "local";

export interface RemoteUrl {
  transport: Transport;
  /** Lower-case host name or IP address (without brackets); empty for a local path. */
  host: string;
  /** The port git connects to. */
  port: number;
}

const HTTP = /^https?:\/\/[^\s\0]+$/i;
const SSH = /^ssh:\/\/[^\s\0]+$/i;
// user@host:path, host a name or an IPv4 address ([IPv6] is taken by ssh:// URLs).
const SCP = /^([A-Za-z0-9._][A-Za-z0-9._-]*)@([A-Za-z0-9.-]+):([^\s\0]+)$/;
const LOCAL = /^(file:\/\/|\/)[^\0]+$/;

export function isLocalRepository(url: string): boolean {
  return LOCAL.test(url);
}

/** Why `url` is refused as a repository URL, or null when it is acceptable. */
export function remoteUrlProblem(url: string): string | null {
  if (url.startsWith("-")) return "A repository URL must not start with '-'";
  if (isLocalRepository(url)) return null;
  if (/^git:\/\//i.test(url)) return "git:// is neither authenticated nor encrypted: use https:// or ssh://";
  if (!HTTP.test(url) && !SSH.test(url) && !SCP.test(url))
    return "A git remote (https://, ssh://, user@host:path) or an absolute path on the server";
  const parsed = parseRemoteUrl(url);
  if (!parsed) return "Not a valid URL";
  if (parsed.host.startsWith("-")) return "A host name must not start with '-'";
  if (HTTP.test(url)) {
    const { username, password } = new URL(url);
    if (username || password) return "Credentials in the URL are refused: store the access token as the repository's credential instead";
  }
  if (SSH.test(url) && new URL(url).password)
    return "Credentials in the URL are refused: store a deploy key as the repository's credential instead";
  return null;
}

/** The transport, host and port of an accepted URL; null for one that does not parse. */
export function parseRemoteUrl(url: string): RemoteUrl | null {
  if (isLocalRepository(url)) return { transport: "local", host: "", port: 0 };
  const scp = url.match(SCP);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return { transport: "ssh", host: scp[2].toLowerCase(), port: 22 };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (!host) return null;
  const transport: Transport = parsed.protocol === "ssh:" ? "ssh" : "http";
  if (parsed.protocol !== "ssh:" && parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  const fallback = parsed.protocol === "ssh:" ? 22 : parsed.protocol === "https:" ? 443 : 80;
  return { transport, host, port: parsed.port ? Number(parsed.port) : fallback };
}

/** The host as git's http.curloptResolve and URLs write it: IPv6 addresses in brackets. */
export function bracketed(address: string): string {
  return net.isIPv6(address) ? `[${address}]` : address;
}
