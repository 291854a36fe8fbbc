// @ts-check
// Plain JavaScript for the same reason as lib/db/pglite-worker.mjs, which opens the server's
// embedded database with it; the tests open their own PGlite databases with it too.
import { PGlite } from "@electric-sql/pglite";

/**
 * PGlite's options for a data directory. `sharedBuffersMb` sets PostgreSQL's shared_buffers
 * (PGLITE_SHARED_BUFFERS_MB): PGlite touches all of it as it opens, so a small database opens
 * sooner with less. Unset, PostgreSQL's default (128 MB).
 * @param {string | undefined} dataDir
 * @param {number | undefined} sharedBuffersMb
 * @returns {import("@electric-sql/pglite").PGliteOptions}
 */
export function pgliteOptions(dataDir, sharedBuffersMb) {
  return {
    dataDir,
    ...(sharedBuffersMb ? { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`] } : {}),
  };
}
