// @ts-check
// The embedded database's own thread: PGlite runs here, in a worker_thread, so that a query's
// WebAssembly no longer runs on the server's main thread, where every request is answered
// (lib/db/pglite-worker-client.ts starts this file and is the only one to speak to it;
// docs/PERFORMANCE.md, "The embedded database in a thread of its own").
//
// Plain JavaScript, not TypeScript: a worker is started from a file, and this one then needs no
// build step in `next start`, `next dev` and the tests alike. It knows nothing of transactions or
// of the results' types: the main thread decides what is sent when (one session, so never two
// callers' statements mixed), and it parses the answers. Here each request runs whole, in the order
// of arrival, and answers with the protocol's raw bytes.
//
// Durability is PGlite's own: it writes to the data directory synchronously (fsync off), so once a
// request has been answered its writes are in the kernel, and a kill -9 of the process keeps them.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { pgliteOptions } from "./pglite-options.mjs";

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
/** @type {string | undefined} */
const dataDir = workerData?.dataDir;
/** @type {number | undefined} */
const sharedBuffersMb = workerData?.sharedBuffersMb;
const db = new PGlite(pgliteOptions(dataDir, sharedBuffersMb));

/** @param {Uint8Array} message */
async function raw(message) {
  // syncToFs does nothing for a directory on disk (NodeFS); errors come back in the bytes.
  return (await db.execProtocol(message, { syncToFs: false, throwOnError: false })).data;
}

/**
 * PGlite's query(): the parameters' types are learned from Describe and the values serialized as
 * PGlite's query() would, then bound and executed, in one request from the main thread where
 * PGlite makes six calls.
 * @param {string} text
 * @param {unknown[]} params
 * @param {number[] | undefined} paramTypes
 */
async function query(text, params, paramTypes) {
  const described = await db.execProtocol(
    concat(protocol.serialize.parse({ text, types: paramTypes }), protocol.serialize.describe({ type: "S" })),
    { syncToFs: false, throwOnError: false },
  );
  if (described.messages.some((message) => message.name === "error")) return concat(described.data, await raw(protocol.serialize.sync()));
  const types = parse.parseDescribeStatementResults(described.messages);
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const serialize = db.serializers[types[i]];
    return serialize ? serialize(param) : String(param);
  });
  const executed = await raw(
    concat(
      protocol.serialize.bind({ values }),
      protocol.serialize.describe({ type: "P" }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ),
  );
  return concat(described.data, executed);
}

/** @param {Uint8Array[]} parts */
function concat(...parts) {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/**
 * @typedef {{ id: number, kind: "raw", message: Uint8Array }
 *   | { id: number, kind: "query", text: string, params: unknown[], paramTypes?: number[] }
 *   | { id: number, kind: "close" }} Request
 */

/** @param {Request} request */
async function answer(request) {
  try {
    if (request.kind === "close") {
      await db.close();
      port.postMessage({ id: request.id, data: new Uint8Array(0) });
      port.close();
      return;
    }
    const data = request.kind === "raw" ? await raw(request.message) : await query(request.text, request.params, request.paramTypes);
    port.postMessage({ id: request.id, data }, [data.buffer]);
  } catch (error) {
    // Not a database error (those are in the bytes): PGlite itself failed, or was closed.
    const { message, stack } = /** @type {Error} */ (error);
    port.postMessage({ id: request.id, error: { message, stack } });
  }
}

// One request at a time, in order: PGlite is one session, and a request is a unit of it.
/** @type {Promise<unknown>} */
let lane = db.waitReady.catch(() => undefined);
port.on("message", (/** @type {Request} */ request) => {
  lane = lane.then(() => answer(request));
});

db.waitReady.then(
  () => port.postMessage({ ready: true }),
  (/** @type {Error} */ error) => port.postMessage({ failed: { message: error.message, stack: error.stack } }),
);
