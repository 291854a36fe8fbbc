// A profile's network_allow: the hosts its agent may reach through the sandbox's proxy. An entry
// is `host` (ports 443 and 80) or `host:port`; `*.example.com` also matches every subdomain (not
// example.com itself). IPv6 literals are written in brackets: `[::1]:8080`.

export interface AllowEntry {
  host: string;
  /** null: 443 and 80. */
  port: number | null;
  wildcard: boolean;
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
    if (entry.port === null ? port !== 443 && port !== 80 : entry.port !== port) return false;
    return entry.wildcard ? name.endsWith(`.${entry.host}`) : name === entry.host;
  });
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
