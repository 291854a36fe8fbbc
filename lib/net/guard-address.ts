import dns from "node:dns/promises";
import net from "node:net";

// The server-side request forgery guard for everything the server connects to on an owner's word:
// webhook deliveries (docs/webhooks.md), the workspace repository's remote (docs/agents.md) and
// the hosts an agent's sandbox proxy connects to (lib/sandbox/network.ts). A
// URL's host is resolved at use time and every address it resolves to is checked; the connection
// then goes to the checked address itself (a pinned lookup in lib/webhooks/send-delivery.ts, git's
// http.curloptResolve or ssh's HostName in lib/git/remote/reach-remote.ts), so a DNS answer that
// changes between the check and the connection (rebinding) cannot redirect it.
//
// node:net's BlockList, maintained with Node itself, holds the ranges. IPv6 forms that embed an
// IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16)
// are checked by the IPv4 address inside, so ::ffff:127.0.0.1 is loopback like 127.0.0.1.

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): translates to any IPv4 address, private ones included
  ["100::", 64], // discard
  ["2001::", 32], // Teredo: tunnels to an IPv4 address the server cannot check
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still private)
  ["ff00::", 8], // multicast
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

export class ForbiddenAddressError extends Error {}

/** Why an address may not be delivered to, or null when it may. */
export function addressProblem(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const embedded = family === 6 ? embeddedIpv4(address) : null;
  if (embedded) return addressProblem(embedded) && `${address} is a private, loopback or reserved address`;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6") ? `${address} is a private, loopback or reserved address` : null;
}

export interface Target {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Instead of allowing every private address or none: the sandbox's proxy (lib/sandbox/network.ts). */
export interface AddressPolicy {
  /** A forbidden address let through all the same: one the agent's profile lists literally. */
  exempt: (address: string) => boolean;
  /** How a person allows a refused address, said in the refusal. */
  remedy: string;
  /** Tests map names to the addresses a hostile DNS would give. */
  lookup?: Lookup;
}

const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for `hostname`: every address DNS gives must be allowed (a name that
 * resolves to one public and one private address is refused), unless private addresses are allowed.
 */
export async function resolveTarget(
  hostname: string,
  allowPrivate: boolean | AddressPolicy,
  setting = "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES",
): Promise<Target> {
  const policy = typeof allowPrivate === "boolean" ? null : allowPrivate;
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const literal = net.isIP(bare);
  const answers = literal ? [{ address: bare, family: literal }] : await (policy?.lookup ?? systemLookup)(bare);
  if (answers.length === 0) throw new Error(`${hostname} did not resolve`);
  if (allowPrivate !== true) {
    const remedy = policy?.remedy ?? `set ${setting}=true to allow for local development`;
    for (const answer of answers) {
      const problem = addressProblem(answer.address);
      if (problem && !policy?.exempt(answer.address))
        throw new ForbiddenAddressError(`Refused: ${hostname} resolves to ${problem} (${remedy})`);
    }
  }
  // IPv4 first when there is one: a pinned address gets no second try, and IPv6 is the more often broken.
  const chosen = answers.find((answer) => answer.family === 4) ?? answers[0];
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** The IPv4 address inside an IPv6 address of the forms that carry one, else null. */
function embeddedIpv4(address: string): string | null {
  const words = ipv6Words(address);
  if (!words) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; ::, ::1 excluded, they are checked as IPv6)
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (zeros(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]);
  // ::ffff:0:a.b.c.d (SIIT), 64:ff9b::a.b.c.d (NAT64)
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6], words[7]);
  // 2002:AABB:CCDD::/48 (6to4)
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

/** The eight 16-bit words of an IPv6 address (with "::" and a trailing dotted IPv4 part expanded). */
function ipv6Words(address: string): number[] | null {
  let text = address.split("%")[0].toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((word) => parseInt(word, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const words = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : null;
}
