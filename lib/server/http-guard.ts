import http from "node:http";
import { allowedMethods } from "@/lib/api/methods";

// Next.js turns every request into a WHATWG Request, and undici refuses to build one for TRACE and
// TRACK ("'TRACE' HTTP method is unsupported"), so Next answers those with a 500 before any of our
// code runs, proxy.ts included. They are answered here instead, at the Node HTTP server, with the
// API's 405. (CONNECT never becomes a "request" event: Node drops it when nobody listens.)

const UNREPRESENTABLE = new Set(["TRACE", "TRACK"]);
const GUARDED = Symbol.for("taskboard.httpGuard");

export function installHttpGuard() {
  const proto = http.Server.prototype as http.Server & { [GUARDED]?: boolean };
  if (proto[GUARDED]) return;
  proto[GUARDED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      if (UNREPRESENTABLE.has(request.method ?? "")) {
        const body = JSON.stringify({ detail: "Method Not Allowed" });
        const allow = (allowedMethods(new URL(request.url ?? "/", "http://x").pathname) ?? ["GET", "HEAD", "POST", "OPTIONS"]).join(", ");
        response.writeHead(405, { "content-type": "application/json", "content-length": Buffer.byteLength(body), allow });
        response.end(body);
        return true;
      }
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
}
