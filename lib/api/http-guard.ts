import http from "node:http";
import type { Socket } from "node:net";
import { allowedMethods } from "@/lib/api/methods";

// Requests that never reach Next.js, answered in the API's error format at the Node HTTP server:
// - TRACE and TRACK: Next turns every request into a WHATWG Request, and undici refuses to build one
//   for these ("'TRACE' HTTP method is unsupported"), so Next answers 500 before any of our code,
//   proxy.ts included, runs. They get 405 here. (CONNECT never becomes a "request" event.)
// - What Node's parser rejects (an unknown method such as FOO, oversized headers): Node's own answer
//   is a bare 400 or 431 with no body; this one carries `{"detail": …}`.
// - Undocumented methods on the API paths proxy.ts does not run for (UNPROXIED): 405 as it would.

const UNREPRESENTABLE = new Set(["TRACE", "TRACK"]);
// API paths proxy.ts does not run for (its matcher), so their undocumented methods get 405 here.
const UNPROXIED = new Set(["/api/webhooks/github"]);
const GUARDED = Symbol.for("taskboard.httpGuard");

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

export function installHttpGuard() {
  const proto = http.Server.prototype as http.Server & { [GUARDED]?: boolean };
  if (proto[GUARDED]) return;
  proto[GUARDED] = true;
  const emit = proto.emit as Emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      const method = request.method ?? "";
      if (UNREPRESENTABLE.has(method) || refusedUnproxied(request.url, method)) {
        const allow = allowedMethods(pathOf(request.url)) ?? ["GET", "HEAD", "POST", "OPTIONS"];
        const body = JSON.stringify({ detail: "Method Not Allowed" });
        response.writeHead(405, { "content-type": "application/json", "content-length": Buffer.byteLength(body), allow: allow.join(", ") });
        response.end(body);
        return true;
      }
    }
    // Node answers a client error itself only when nobody listens; keep that rule.
    if (event === "clientError" && this.listenerCount("clientError") === 0) {
      const [error, socket] = args as [NodeJS.ErrnoException, Socket];
      answerClientError(error, socket);
      return true;
    }
    return emit.call(this, event, ...args);
  } as typeof proto.emit;
}

function refusedUnproxied(url: string | undefined, method: string): boolean {
  const path = (url ?? "").split("?")[0];
  return UNPROXIED.has(path) && !(allowedMethods(path) ?? []).includes(method);
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return "/";
  }
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket) {
  const [status, reason] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout"]
        : [400, "Bad Request"];
  if (!socket.writable || socket.bytesWritten > 0) {
    socket.destroy(error);
    return;
  }
  const body = JSON.stringify({ detail: reason });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
