import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, Writable } from "node:stream";

// oidc-provider is a Koa application: it answers a Node (req, res) pair. Next's App Router hands a
// route handler a Web Request and wants a Response back, and exposes no Node objects. This is the
// smallest honest bridge: the Request becomes a readable IncomingMessage-shaped stream (method,
// url, headers, body, a socket that tells Koa whether the connection was TLS), and the response is
// a Writable that records status, headers and body, turned into a Response when Koa ends it.
// Nothing is proxied over the network and the provider runs in the same process as the route.

export interface NodePair {
  req: IncomingMessage;
  res: ServerResponse;
  /** Settles when the handler ended the response. */
  done: Promise<Response>;
}

const MAX_OAUTH_BODY = 64 * 1024;

export async function nodePair(
  request: Request,
  path: string = new URL(request.url).pathname + new URL(request.url).search,
): Promise<NodePair> {
  const body = request.method === "GET" || request.method === "HEAD" ? null : Buffer.from(await request.arrayBuffer());
  if (body && body.length > MAX_OAUTH_BODY) throw new RangeError("body too large");
  const url = new URL(request.url);
  const socket = Object.assign(new EventEmitter(), {
    encrypted: url.protocol === "https:",
    writable: true,
    remoteAddress: "127.0.0.1",
  });
  const req = Object.assign(Readable.from(body ? [body] : []), {
    method: request.method,
    url: path,
    headers: Object.fromEntries([...request.headers.entries()]),
    httpVersion: "1.1",
    socket,
    connection: socket,
  }) as unknown as IncomingMessage;

  const chunks: Buffer[] = [];
  const headers = new Map<string, string | string[]>();
  let resolveDone!: (response: Response) => void;
  const done = new Promise<Response>((resolve) => (resolveDone = resolve));
  const res = new Writable({
    write(chunk, encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
      callback();
    },
  }) as Writable & Record<string, unknown>;
  Object.assign(res, {
    statusCode: 200,
    statusMessage: "",
    headersSent: false,
    socket,
    setHeader: (name: string, value: string | number | string[]) => {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value : String(value));
      return res;
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    getHeaders: () => Object.fromEntries(headers),
    getHeaderNames: () => [...headers.keys()],
    hasHeader: (name: string) => headers.has(name.toLowerCase()),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    writeHead: (status: number, ...rest: unknown[]) => {
      res.statusCode = status;
      const extra = rest.find((item) => item && typeof item === "object") as Record<string, string> | undefined;
      for (const [name, value] of Object.entries(extra ?? {})) (res.setHeader as (n: string, v: string) => void)(name, value);
      return res;
    },
  });
  res.on("finish", () => {
    res.headersSent = true;
    const out = new Headers();
    for (const [name, value] of headers) for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
    // Next sets its own length; a Response with a null-body status must have no body.
    out.delete("content-length");
    const status = res.statusCode as number;
    const empty = status === 204 || status === 304 || request.method === "HEAD";
    resolveDone(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
  });
  return { req, res: res as unknown as ServerResponse, done };
}
