#!/usr/bin/env node
// The runner as one JavaScript file (part of `npm run build`, after `next build`, which empties .next/):
// the embedded runner, `npm run runner` and the tests' runners start it with plain `node`, rather
// than compiling lib/runner-process/*.ts with tsx at every start (docs/runners.md). Packages stay in
// node_modules; only this repository's TypeScript is bundled.
import { build } from "esbuild";
import { RUNNER_BUNDLE, root } from "./lib/build-state.mjs";

const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: ["lib/runner-process/main.ts"],
  outfile: RUNNER_BUNDLE,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
console.log(`[taskboard] runner bundled into ${RUNNER_BUNDLE.slice(root.length + 1)} in ${Date.now() - started} ms`);
