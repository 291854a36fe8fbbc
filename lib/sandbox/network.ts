import http from "node:http";
import net from "node:net";
import path from "node:path";
import { isAllowed, type AllowEntry } from "@/lib/sandbox/allowlist";

// The host side of a sandbox's network. The sandbox has its own network namespace with only a
// loopback interface, so nothing inside can open a connection out. What it may reach comes in
// through Unix sockets in one directory bound into the sandbox, each relayed to a TCP port inside
// by socat (lib/sandbox/sandboxed-command.ts):
// - `<port>.sock` for a loopback port the agent reaches at the same address (the board's own API,
//   loopback entries of the allowlist): each connection is joined to that port on this machine;
// - `proxy.sock`, an HTTP proxy (CONNECT for https, absolute-form requests for http) that connects
//   only to the hosts of the allowlist, answering 403 otherwise. Agents find it through HTTPS_PROXY.

export interface Bridge {
  /** The port inside the sandbox, and where its connections go outside. */
  port: number;
  host: string;
}

export interface SandboxNetwork {
  close: () => Promise<void>;
}

export async function startNetwork(dir: string, allow: AllowEntry[], bridges: Bridge[]): Promise<SandboxNetwork> {
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
    const proxy = allowlistProxy(allow, track);
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

function allowlistProxy(allow: AllowEntry[], track: (socket: net.Socket) => void): http.Server {
  const server = http.createServer((request, response) => {
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
    const headers = { ...request.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      { host: target.hostname.replace(/^\[|\]$/g, ""), port, method: request.method, path: `${target.pathname}${target.search}`, headers },
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
  server.on("connect", (request: http.IncomingMessage, inside: net.Socket, head: Buffer) => {
    track(inside);
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(request.url ?? "");
    const host = match?.[1].replace(/^\[|\]$/g, "");
    const port = Number(match?.[2]);
    if (!host || !isAllowed(allow, host, port)) {
      inside.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refused(request.url ?? "")}`);
      return;
    }
    const outside = net.connect(port, host, () => {
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
