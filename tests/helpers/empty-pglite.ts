import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteSharedBuffersMb } from "@/lib/config";
import { pgliteOptions } from "@/lib/db/pglite-options.mjs";

/**
 * A PGlite data directory of its own as initdb leaves it: a copy of the run's empty template
 * (tests/setup/database-templates.ts). `new PGlite()` in memory runs initdb, about 4.7 s of CPU;
 * this opens in about 1.4 s. For tests that need a database with nothing in it (the migrations',
 * PGlite's own); `remove` once it is closed.
 */
export function emptyPgliteDir(): { dir: string; remove(): void } {
  const template = process.env.TASKBOARD_PGLITE_EMPTY_TEMPLATE;
  if (!template) throw new Error("TASKBOARD_PGLITE_EMPTY_TEMPLATE is unset: tests/setup/database-setup.ts sets it");
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-empty-"));
  const dir = path.join(parent, "pglite");
  fs.cpSync(template, dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

/** For a file that needs several: `next()` makes another copy, `removeAll()` (in its afterAll) removes them. */
export function emptyPgliteDirs(): { next(): string; removeAll(): void } {
  const made: ReturnType<typeof emptyPgliteDir>[] = [];
  return {
    next() {
      const copy = emptyPgliteDir();
      made.push(copy);
      return copy.dir;
    },
    removeAll: () => made.splice(0).forEach((copy) => copy.remove()),
  };
}

/**
 * PGlite in this process on a test's own data directory, with the tests' small buffer pool
 * (PGLITE_SHARED_BUFFERS_MB, set by tests/setup/database-setup.ts), opened as the server opens its
 * own: PostgreSQL's default 128 MB costs about 0.3–0.6 s of CPU more per open than 16 MB.
 */
export function openTestPglite(dir: string): PGlite {
  return new PGlite(pgliteOptions(dir, pgliteSharedBuffersMb()));
}
