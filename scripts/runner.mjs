#!/usr/bin/env node
// `npm run runner -- --url <board URL> --token <token>`: the runner (lib/runner-process/main.ts) in this
// process. From the bundle `npm run build` makes when it is there and no source is newer; otherwise
// (a machine that runs only runners and never built, or sources changed since) from the TypeScript
// through tsx's loader. One process either way, so SIGTERM reaches the runner itself.
import { pathToFileURL } from "node:url";
import path from "node:path";
import { RUNNER_BUNDLE, root, runnerBundleCurrent } from "./lib/build-state.mjs";

if (runnerBundleCurrent()) {
  await import(pathToFileURL(RUNNER_BUNDLE).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(root, "lib", "runner-process", "main.ts")).href);
}
