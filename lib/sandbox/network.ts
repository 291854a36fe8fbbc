import http from "node:http";
import net from "node:net";
import path from "node:path";
import { ForbiddenAddressError, resolveTarget, type Lookup, type Target } from "@/lib/net/guard-address";
import { isAllowed, isOperatorHost, listsAddress, type AllowEntry } from "@/lib/sandbox/allowlist";

// The host side of a sandbox's network. The sandbox has its own network namespace with only a
// loopback interface, so nothing inside can open a connection out. What it may reach comes in
// through Unix sockets in one directory bound into the sandbox, each relayed to a TCP port inside
// by socat (lib/sandbox/sandboxed-command.ts):
// - `<port>.sock` for a loopback port the agent reaches at the same address (the board's own API,
//   loopback entries of the allowlist): each connection is joined to that port on this machine;
// - `proxy.sock`, an HTTP proxy (CONNECT for https, absolute-form requests for http) that connects
//   only to the hosts of the allowlist, answering 403 otherwise. Agents find it through HTTPS_PROXY.
//   A listed name is resolved once per connection and every address it gives must pass the
//   server's address check (lib/net/guard-address.ts, as for webhooks and repositories): a name,
//   listed or wildcard, that resolves or rebinds to loopback, link-local (cloud metadata), private
//   or an IPv6 form of those is refused, unless the profile lists that exact address (the board's
//   port and tests' local servers are `127.0.0.1:<port>`), or the host is the operator's own (the
//   board's URL, a `*_BASE_URL` gateway: AllowEntry.operator). The connection goes to the checked
//   address, never to the name again.

export interface Bridge {
  /** The port inside the sandbox, and where its connections go outside. */
  port: number;
  host: string;
}

export interface SandboxNetwork {
  close: () => Promise<void>;
}

export interface NetworkOptions {
  /** Tests stand in for a DNS that answers loopback or private addresses. */
  lookup?: Lookup;
}

export async function startNetwork(
  dir: string,
  allow: AllowEntry[],
  bridges: Bridge[],
  options: NetworkOptions = {},
): Promise<SandboxNetwork> {
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  try {
    for (const bridge of bridges) {
      const server = net.createServer((inside) => {
        track(inside);
        const outside = net.connect(bridge.port, bridge.host);
        track(outside);
        join(inside, outside);
      });
      servers.push(server);
      await listen(server, path.join(dir, `${bridge.port}.sock`));
    }
    const proxy = allowlistProxy(allow, track, options.lookup);
    servers.push(proxy);
    await listen(proxy, path.join(dir, "proxy.sock"));
  } catch (error) {
    for (const server of servers) server.close();
    throw error;
  }
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

function allowlistProxy(allow: AllowEntry[], track: (socket: net.Socket) => void, lookup?: Lookup): http.Server {
  const server = http.createServer(async (request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400).end("taskboard sandbox: a proxy request needs an absolute http:// URL\n");
      return;
    }
    const port = target.port ? Number(target.port) : 80;
    if (target.protocol !== "http:" || !isAllowed(allow, target.hostname, port)) {
      response.writeHead(403).end(refused(`${target.hostname}:${port}`));
      return;
    }
    const checked = await checkedAddress(allow, target.hostname, port, lookup);
    if ("status" in checked) {
      response.writeHead(checked.status).end(checked.message);
      return;
    }
    const headers = { ...request.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      { host: checked.address, family: checked.family, port, method: request.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", (error) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(`taskboard sandbox: ${error.message}\n`);
    });
    request.pipe(upstream);
  });
  server.on("connect", async (request: http.IncomingMessage, inside: net.Socket, head: Buffer) => {
    track(inside);
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(request.url ?? "");
    const host = match?.[1].replace(/^\[|\]$/g, "");
    const port = Number(match?.[2]);
    if (!host || !isAllowed(allow, host, port)) {
      inside.end(answer(403, "Forbidden", refused(request.url ?? "")));
      return;
    }
    const checked = await checkedAddress(allow, host, port, lookup);
    if ("status" in checked) {
      inside.end(answer(checked.status, checked.status === 403 ? "Forbidden" : "Bad Gateway", checked.message));
      return;
    }
    const outside = net.connect({ port, host: checked.address, family: checked.family }, () => {
      inside.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) outside.write(head);
      join(inside, outside);
    });
    track(outside);
    outside.once("error", () => {
      if (inside.writable) inside.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
    });
  });
  return server;
}

/** The one address a listed host:port is reached at, or the proxy's refusal in words. */
async function checkedAddress(
  allow: AllowEntry[],
  host: string,
  port: number,
  lookup?: Lookup,
): Promise<Target | { status: 403 | 502; message: string }> {
  try {
    const operator = isOperatorHost(allow, host, port);
    return await resolveTarget(host, {
      exempt: (address) => operator || listsAddress(allow, address, port),
      remedy: `the agent profile's network_allow must list that address itself, with port ${port}, to allow it`,
      lookup,
    });
  } catch (error) {
    const message = `taskboard sandbox: ${error instanceof Error ? error.message : String(error)}\n`;
    return { status: error instanceof ForbiddenAddressError ? 403 : 502, message };
  }
}

function answer(status: number, reason: string, body: string): string {
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${body}`;
}

function refused(target: string): string {
  return `taskboard sandbox: ${target} is not in the agent profile's network_allow\n`;
}

function join(a: net.Socket, b: net.Socket) {
  a.pipe(b);
  b.pipe(a);
  a.once("close", () => b.destroy());
  b.once("close", () => a.destroy());
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
