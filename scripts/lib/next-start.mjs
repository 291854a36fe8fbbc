import path from "node:path";
import { root } from "./build-state.mjs";

// Idle keep-alive connections stay open 65 s (Node's default is 5 s). A client that reuses a pooled
// connection just as the server closes it gets ECONNRESET, and a POST is not retried: a proxy in
// front (idle timeouts of 60 s are common) or a script's HTTP client that keeps connections longer
// than the server meets that race. A stop still closes idle connections at once (lib/server/shutdown.ts).
const KEEP_ALIVE_MS = 65_000;

/** Node's arguments for `next start` on `port` (and `host` when given): one definition for every way the server starts. */
export function nextStartArgs(port, host) {
  const args = [
    path.join(root, "node_modules/next/dist/bin/next"),
    "start",
    "-p",
    String(port),
    "--keepAliveTimeout",
    String(KEEP_ALIVE_MS),
  ];
  return host ? [...args, "-H", host] : args;
}
