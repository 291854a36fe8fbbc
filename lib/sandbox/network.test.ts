import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowEntry } from "@/lib/sandbox/allowlist";
import { startNetwork, type SandboxNetwork } from "@/lib/sandbox/network";

// The sandbox's proxy checks where a listed name resolves (issue #35, finding 8): a name that a
// hostile DNS points at loopback, cloud metadata, a private address or an IPv6 form of those is
// refused, unless the profile lists that exact address; the name is resolved once and the
// connection goes to the checked address. The proxy runs on its Unix socket as in a real run; a
// lookup function stands in for DNS, and a local server for the host behind the name.

let target: http.Server;
let port: number;
let dir: string;
const networks: SandboxNetwork[] = [];

beforeAll(async () => {
  target = http.createServer((request, response) => response.end(`reached ${request.headers.host}\n`));
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  port = (target.address() as net.AddressInfo).port;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-network-"));
});

afterAll(async () => {
  for (const network of networks) await network.close();
  target?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A proxy for the allowlist with a fake DNS; the socket to talk to it, and the names looked up. */
async function proxy(allow: string[], dns: Record<string, string[]>) {
  const socketDir = fs.mkdtempSync(path.join(dir, "p-"));
  const lookups: string[] = [];
  const lookup = async (hostname: string) => {
    lookups.push(hostname);
    const addresses = dns[hostname] ?? [];
    // A rebinding DNS: a second question about the name gets a different answer.
    if (lookups.filter((name) => name === hostname).length > 1) return [{ address: "10.9.9.9", family: 4 }];
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  const entries = allow.map((text) => parseAllowEntry(text)!);
  networks.push(await startNetwork(socketDir, entries, [], { lookup }));
  return { socket: path.join(socketDir, "proxy.sock"), lookups };
}

/** A CONNECT through the proxy and a GET on the tunnel: the proxy's status line and what came back. */
function connect(socket: string, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = net.connect(socket);
    let text = "";
    client.on("data", (chunk) => {
      text += chunk.toString();
      if (text.startsWith("HTTP/1.1 200") && text.endsWith("\r\n\r\n") && !text.includes("reached"))
        client.write(`GET / HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    client.on("end", () => resolve(text));
    client.on("error", reject);
    client.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

/** A plain-http request through the proxy (absolute form): status and body. */
function get(socket: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath: socket, path: url, headers: { host: new URL(url).host } }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the sandbox proxy's address check", () => {
  it("refuses a listed name that resolves to 127.0.0.1, over CONNECT and plain http", async () => {
    const { socket } = await proxy([`app.example.com:${port}`], { "app.example.com": ["127.0.0.1"] });
    const tunnel = await connect(socket, `app.example.com:${port}`);
    expect(tunnel).toMatch(/^HTTP\/1.1 403 Forbidden/);
    expect(tunnel).toContain("app.example.com resolves to 127.0.0.1 is a private, loopback or reserved address");
    expect(tunnel).not.toContain("reached");
    const plain = await get(socket, `http://app.example.com:${port}/`);
    expect(plain.status).toBe(403);
    expect(plain.body).toContain(`must list that address itself, with port ${port}`);
  });

  it("refuses `localhost` and a wildcard match that resolve to loopback, metadata or private addresses", async () => {
    const dns = {
      localhost: ["127.0.0.1"],
      "metadata.corp.example": ["169.254.169.254"],
      "db.corp.example": ["93.184.216.34", "10.0.0.5"],
    };
    const { socket } = await proxy([`localhost:${port}`, "*.corp.example"], dns);
    expect(await connect(socket, `localhost:${port}`)).toMatch(
      /^HTTP\/1.1 403 .*\r\n\r\ntaskboard sandbox: Refused: localhost resolves to 127.0.0.1/s,
    );
    expect(await connect(socket, "metadata.corp.example:443")).toMatch(/403 Forbidden[^]*169\.254\.169\.254/);
    // One private address among public ones is enough: the proxy could be made to pick it.
    expect(await connect(socket, "db.corp.example:443")).toMatch(/403 Forbidden[^]*10\.0\.0\.5/);
  });

  it("refuses the IPv4-mapped, NAT64 and 6to4 forms of loopback, even where 127.0.0.1 itself is listed", async () => {
    const forms = ["::ffff:127.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::a00:1", "2002:7f00:1::1", "::1"];
    const dns = Object.fromEntries(forms.map((address, i) => [`v6-${i}.example.com`, [address]]));
    const { socket } = await proxy([`*.example.com:${port}`, `127.0.0.1:${port}`], dns);
    for (const [i, address] of forms.entries()) {
      const answer = await connect(socket, `v6-${i}.example.com:${port}`);
      expect(answer, address).toMatch(/^HTTP\/1.1 403 Forbidden/);
      expect(answer, address).toContain(`resolves to ${address} is a private, loopback or reserved address`);
    }
  });

  it("lets a name through to an address the profile lists itself, resolved once, to the checked address", async () => {
    const { socket, lookups } = await proxy([`app.example.com:${port}`, `127.0.0.1:${port}`], { "app.example.com": ["127.0.0.1"] });
    const tunnel = await connect(socket, `app.example.com:${port}`);
    expect(tunnel).toMatch(/^HTTP\/1.1 200 Connection Established/);
    expect(tunnel).toContain(`reached app.example.com:${port}`);
    // Resolved once: the fake DNS would have rebound the name to 10.9.9.9 on a second question.
    expect(lookups).toEqual(["app.example.com"]);
    // Listed on another port only: refused.
    const other = await proxy([`app.example.com:${port}`, "127.0.0.1:1"], { "app.example.com": ["127.0.0.1"] });
    expect(await connect(other.socket, `app.example.com:${port}`)).toMatch(/^HTTP\/1.1 403 Forbidden/);
  });

  it("lets the operator's own hosts (the board's URL, a model gateway) through on a private address, and only on their port", async () => {
    const socketDir = fs.mkdtempSync(path.join(dir, "p-"));
    const lookup = async () => [{ address: "127.0.0.1", family: 4 }];
    const allow = [{ host: "board.internal", port, wildcard: false, operator: true }, parseAllowEntry("board.internal")!];
    networks.push(await startNetwork(socketDir, allow, [], { lookup }));
    const socket = path.join(socketDir, "proxy.sock");
    expect(await connect(socket, `board.internal:${port}`)).toContain(`reached board.internal:${port}`);
    // The same name listed by the profile (ports 443 and 80) gets the address check.
    expect(await connect(socket, "board.internal:443")).toMatch(/^HTTP\/1.1 403 Forbidden/);
  });

  it("keeps a listed literal loopback address reachable, over CONNECT and plain http", async () => {
    const { socket, lookups } = await proxy([`127.0.0.1:${port}`], {});
    expect(await connect(socket, `127.0.0.1:${port}`)).toContain(`reached 127.0.0.1:${port}`);
    expect(await get(socket, `http://127.0.0.1:${port}/x`)).toEqual({ status: 200, body: `reached 127.0.0.1:${port}\n` });
    expect(lookups).toEqual([]);
  });
});
