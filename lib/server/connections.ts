import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";

// Next's route handlers never see the socket, and a response body Next is writing waits for the
// socket to drain before it reads on, for as long as the socket stays open. A long-lived response
// whose client stopped reading (an event stream) could therefore never be ended from the route: its
// last write waits forever. So the server process stamps each request with an id of its connection,
// in a header it always overwrites (as lib/auth/client-address.ts does for the address), and keeps
// the open connections by that id, so a route can drop its own connection.
const CONNECTION_HEADER = "x-taskboard-connection";

const state = globalThis as typeof globalThis & {
  __taskboardConnections?: { ids: WeakMap<Socket, string>; sockets: Map<string, Socket>; next: number };
};

/** Called once at start-up (instrumentation.ts), in the process that serves HTTP. */
export function stampConnections() {
  if (state.__taskboardConnections) return;
  const registry = { ids: new WeakMap<Socket, string>(), sockets: new Map<string, Socket>(), next: 0 };
  state.__taskboardConnections = registry;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        const socket = request.socket;
        let id = socket ? registry.ids.get(socket) : undefined;
        if (socket && id === undefined) {
          id = String(++registry.next);
          registry.ids.set(socket, id);
          registry.sockets.set(id, socket);
          socket.once("close", () => registry.sockets.delete(id!));
        }
        request.headers[CONNECTION_HEADER] = id ?? "";
      }
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof emit;
  }
}

/** Ends the connection `request` came on at once, whatever is still waiting to be written to it. */
export function dropConnection(request: Request): boolean {
  const id = request.headers.get(CONNECTION_HEADER);
  const socket = id ? state.__taskboardConnections?.sockets.get(id) : undefined;
  if (!socket) return false;
  // A reset, not a FIN: the kernel discards what is queued for a client that reads nothing, rather
  // than holding it until the client's window opens.
  socket.resetAndDestroy();
  return true;
}
