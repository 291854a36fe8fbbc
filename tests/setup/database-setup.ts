import type { TestProject } from "vitest/node";
import { TEST_NODE_ARGS } from "../../scripts/lib/test-node-args.mjs";
import { pgliteEmptyTemplate, pgliteTemplate, postgresTemplate } from "./database-templates";

// Every vitest project: which database the run is on, and the migrated template that the tests'
// servers and own databases start from (tests/setup/database-templates.ts). No server, no build.
export default async function setup(project: TestProject) {
  const kind = process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "pglite";
  // Through the environment, because scripts/lib/server.mjs and scripts/lib/postgres.mjs (plain
  // JavaScript, shared with the benchmarks) read it there; the workers inherit it.
  process.env.TASKBOARD_PGLITE_TEMPLATE ??= await pgliteTemplate();
  process.env.TASKBOARD_PGLITE_EMPTY_TEMPLATE ??= await pgliteEmptyTemplate();
  if (kind === "postgresql") process.env.TASKBOARD_POSTGRES_TEMPLATE ??= await postgresTemplate();
  // The test servers (about a hundred a pass) each live seconds and answer a few routes: loading all
  // routes at start cost each about 0.7 s (docs/testing.md, docs/configuration.md).
  process.env.PRELOAD_ROUTES ??= "false";
  // Their embedded databases hold a few rows each: a smaller buffer pool starts about 0.5 s of CPU
  // sooner (docs/PERFORMANCE.md, "A server's start"). The shared server, which holds the whole
  // run's data, keeps the default (tests/setup/global-server.ts).
  process.env.PGLITE_SHARED_BUFFERS_MB ??= "16";
  // Every server, the shared one too: WebAssembly on V8's baseline compiler only (the file says why).
  process.env.TASKBOARD_SERVER_NODE_ARGS ??= TEST_NODE_ARGS.join(" ");
  project.provide("databaseKind", kind);
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseKind: "pglite" | "postgresql";
  }
}
