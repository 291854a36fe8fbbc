import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");

/** The runner bundled by scripts/build-runner.mjs, the last step of `npm run build`. */
export const RUNNER_BUNDLE = path.join(root, ".next", "runner", "main.mjs");

/** True when there is no production build, or a source file is newer than it. */
export function needsBuild() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId) || !fs.existsSync(RUNNER_BUNDLE)) return true;
  const built = Math.min(fs.statSync(buildId).mtimeMs, fs.statSync(RUNNER_BUNDLE).mtimeMs);
  const sources = ["app", "components", "lib", "prisma", "public", "instrumentation.ts", "proxy.ts", "next.config.mjs", "package.json"];
  return sources.some((entry) => newerThan(path.join(root, entry), built));
}

/** True when the runner bundle exists and no source it is made of is newer than it. */
export function runnerBundleCurrent() {
  if (!fs.existsSync(RUNNER_BUNDLE)) return false;
  const built = fs.statSync(RUNNER_BUNDLE).mtimeMs;
  return !["lib", "package.json", "tsconfig.json"].some((entry) => newerThan(path.join(root, entry), built));
}

function newerThan(file, time) {
  if (!fs.existsSync(file)) return false;
  const stat = fs.statSync(file);
  if (stat.mtimeMs > time) return true;
  if (!stat.isDirectory() || file.endsWith("generated")) return false;
  return fs.readdirSync(file).some((name) => newerThan(path.join(file, name), time));
}
