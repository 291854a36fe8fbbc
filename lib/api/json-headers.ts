// Next gzips every answer to a client that accepts gzip, however small: it streams the body, so its
// compression middleware never learns the length, and the middleware's own 1 kB threshold never
// applies. A gzip stream cost the server 0.5 to 1.5 ms of CPU an answer here (measured), to save a
// few hundred bytes; `no-transform` is the middleware's opt-out, so answers under that threshold go
// as they are (docs/PERFORMANCE.md, "Small answers unzipped, no middleware").
const COMPRESS_FROM_BYTES = 1024;

/** The headers of a JSON answer with this body. */
export function jsonHeaders(body: string): Record<string, string> {
  return Buffer.byteLength(body) < COMPRESS_FROM_BYTES
    ? { "content-type": "application/json", "cache-control": "no-transform" }
    : { "content-type": "application/json" };
}
