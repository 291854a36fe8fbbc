import crypto from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import { allowedMethods } from "@/lib/api/methods";
import { SECURITY_HEADERS } from "@/lib/api/security-headers.mjs";

// Requests that never reach Next.js, answered in the API's error format at the Node HTTP server,
// before Next turns the request into objects of its own (about 0.7 ms of CPU a request when this
// was Next's middleware, proxy.ts; docs/PERFORMANCE.md, "Small answers unzipped, no middleware"):
// - a path whose percent-encoding is malformed or hides a NUL: 404 (Next fails decoding the first
//   with a 500; PostgreSQL refuses the second in any query);
// - under /api, a method the path does not document: 405 with Allow (Next's own 405 has an empty
//   body), and any method but the usual ones on a path no route has: 404;
// - TRACE and TRACK on any path: Next turns every request into a WHATWG Request, and undici refuses
//   to build one for these ("'TRACE' HTTP method is unsupported"), so Next would answer 500. (CONNECT
//   never becomes a "request" event.)
// - what Node's parser rejects (an unknown method such as FOO, oversized headers): Node's own answer
//   is a bare 400 or 431 with no body; this one carries `{"detail": …}`.
// It patches every HTTP server of the process it is installed in (instrumentation.ts): in the web
// server's process that is Next's alone. The sandbox's proxies (lib/sandbox/network.ts) run in the
// runner's process, which never installs it.

const UNREPRESENTABLE = new Set(["TRACE", "TRACK"]);
// Asked of app/api/[...path], which answers unknown paths with a 404 in the API's format.
const STANDARD_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
// What pages and next-auth's browser endpoints (app/api/auth/[...nextauth], not part of the
// documented API) answer.
const USUAL_METHODS = ["GET", "HEAD", "POST", "OPTIONS"];
const GUARDED = Symbol.for("taskboard.httpGuard");
// Next adds these to its own answers (next.config.mjs); the guard's answers carry them too.
const SECURITY: http.OutgoingHttpHeaders = Object.fromEntries(SECURITY_HEADERS.map(({ key, value }) => [key, value]));

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

interface Refusal {
  status: 404 | 405;
  /** In the API's error format (JSON with x-request-id), else plain text. */
  api: boolean;
  allow?: string[];
}

export function installHttpGuard() {
  const proto = http.Server.prototype as http.Server & { [GUARDED]?: boolean };
  if (proto[GUARDED]) return;
  proto[GUARDED] = true;
  const emit = proto.emit as Emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      const refused = refusal(request.method ?? "", pathOf(request.url));
      if (refused) {
        answer(request, response, refused);
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

/** Why this request never reaches Next, or null when it may. Exported for the tests. */
export function refusal(method: string, path: string): Refusal | null {
  const api = path === "/api" || path.startsWith("/api/");
  if (UNREPRESENTABLE.has(method)) return { status: 405, api: true, allow: allowedMethods(path) ?? USUAL_METHODS };
  if (!decodable(path)) return { status: 404, api };
  if (!api) return null;
  const allowed = allowedMethods(path) ?? (path.startsWith("/api/auth/") ? USUAL_METHODS : null);
  if (allowed === null) return STANDARD_METHODS.has(method) && path !== "/api" ? null : { status: 404, api };
  return allowed.includes(method) ? null : { status: 405, api, allow: allowed };
}

function answer(request: http.IncomingMessage, response: http.ServerResponse, refused: Refusal) {
  const reason = refused.status === 404 ? "Not Found" : "Method Not Allowed";
  const body = refused.api ? JSON.stringify({ detail: reason }) : reason;
  const headers: http.OutgoingHttpHeaders = { ...SECURITY };
  headers["content-type"] = refused.api ? "application/json" : "text/plain; charset=utf-8";
  headers["content-length"] = Buffer.byteLength(body);
  if (refused.allow) headers.allow = refused.allow.join(", ");
  // Like every API answer (lib/api/handler.ts).
  if (refused.api) headers["x-request-id"] = String(request.headers["x-request-id"] || crypto.randomUUID());
  response.writeHead(refused.status, headers);
  response.end(request.method === "HEAD" ? undefined : body);
}

function decodable(path: string): boolean {
  try {
    return !decodeURIComponent(path).includes("\0");
  } catch {
    return false;
  }
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
