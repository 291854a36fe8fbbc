import net from "node:net";

// A profile's network_allow: the hosts its agent may reach through the sandbox's proxy. An entry
// is `host` (ports 443 and 80) or `host:port`; `*.example.com` also matches every subdomain (not
// example.com itself). IPv6 literals are written in brackets: `[::1]:8080`.

export interface AllowEntry {
  host: string;
  /** null: 443 and 80. */
  port: number | null;
  wildcard: boolean;
  /**
   * Named by the server's operator, not by a profile: the board's own URL and a `*_BASE_URL` model
   * gateway (lib/sandbox/sandboxed-command.ts). The proxy's address check does not apply to such a
   * host (a board on a private network is reached as before); it is still resolved once and pinned.
   */
  operator?: boolean;
}

const HOST = /^(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** The entry, or null when it is not `host` or `host:port`. */
export function parseAllowEntry(text: string): AllowEntry | null {
  const value = text.trim().toLowerCase();
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return null;
  const [, host, portText] = match;
  if (!HOST.test(host) || host.length > 253) return null;
  const port = portText === undefined ? null : Number(portText);
  if (port !== null && (port < 1 || port > 65535)) return null;
  const wildcard = host.startsWith("*.");
  return { host: wildcard ? host.slice(2) : unbracket(host), port, wildcard };
}

export function isAllowed(entries: AllowEntry[], host: string, port: number): boolean {
  const name = unbracket(host.toLowerCase()).replace(/\.$/, "");
  return entries.some((entry) => {
    if (!portMatches(entry, port)) return false;
    return entry.wildcard ? name.endsWith(`.${entry.host}`) : name === entry.host;
  });
}

function portMatches(entry: AllowEntry, port: number): boolean {
  return entry.port === null ? port === 443 || port === 80 : entry.port === port;
}

/**
 * Whether an entry names this IP address itself on this port: the one way a profile lets its agent
 * reach a loopback or private address through the proxy (lib/sandbox/network.ts). A name never
 * does, wildcard or not, even `localhost`: what it resolves to is not the profile's to vouch for.
 */
export function listsAddress(entries: AllowEntry[], address: string, port: number): boolean {
  const wanted = canonicalIp(address);
  return (
    wanted !== null &&
    entries.some((entry) => {
      if (entry.wildcard || !portMatches(entry, port)) return false;
      return canonicalIp(entry.host) === wanted;
    })
  );
}

/** One spelling per address (IPv6 has many), or null for a name. */
function canonicalIp(text: string): string | null {
  const bare = unbracket(text.toLowerCase());
  const family = net.isIP(bare);
  if (family === 4) return bare;
  return family === 6 ? new URL(`http://[${bare}]/`).hostname : null;
}

/** Whether an operator's entry (not a profile's) names exactly this host and port. */
export function isOperatorHost(entries: AllowEntry[], host: string, port: number): boolean {
  const name = unbracket(host.toLowerCase()).replace(/\.$/, "");
  return entries.some((entry) => entry.operator === true && !entry.wildcard && portMatches(entry, port) && entry.host === name);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(unbracket(host.toLowerCase()));
}

/** host:port of a URL, with the scheme's default port. */
export function hostPortOf(url: string): { host: string; port: number } | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
    return { host: unbracket(parsed.hostname.toLowerCase()), port };
  } catch {
    return null;
  }
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
