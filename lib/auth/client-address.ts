import http from "node:http";
import https from "node:https";
import { trustProxyHops } from "@/lib/config";

// Next's route handlers never see the socket, and the X-Forwarded-For Next adds is only added when
// the client sent none (`??=` in next/dist/server/base-server.js), so any client can choose it.
// The server process therefore stamps each request with its socket's address, in a header it
// always overwrites, before Next sees the request.
const PEER_HEADER = "x-taskboard-peer-address";

const state = globalThis as typeof globalThis & { __taskboardPeerHeader?: boolean };

/** Called once at start-up (instrumentation.ts), in the process that serves HTTP. */
export function stampPeerAddresses() {
  if (state.__taskboardPeerHeader) return;
  state.__taskboardPeerHeader = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
      }
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof emit;
  }
}

/**
 * The client's address: the socket's, or with TRUST_PROXY=N the address the Nth proxy from us
 * says it saw (counting X-Forwarded-For from the right, so entries the client wrote are never
 * used). "unknown" when the server could not stamp the request; that is never loopback.
 */
export function clientAddress(headers: Headers | Record<string, unknown>): string {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return typeof value === "string" ? value : Array.isArray(value) ? value.join(",") : "";
  };
  const peer = read(PEER_HEADER).trim();
  if (!peer) return "unknown";
  const hops = trustProxyHops();
  if (hops === 0) return peer;
  const chain = [...read("x-forwarded-for").split(","), peer].map((entry) => entry.trim()).filter(Boolean);
  return chain[Math.max(0, chain.length - 1 - hops)];
}

export function isLoopback(address: string): boolean {
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || /^127\.\d+\.\d+\.\d+$/.test(plain);
}
