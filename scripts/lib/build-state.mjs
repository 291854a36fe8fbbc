import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");

/** True when there is no production build, or a source file is newer than it. */
export function needsBuild() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = ["app", "components", "lib", "prisma", "public", "instrumentation.ts", "proxy.ts", "next.config.mjs", "package.json"];
  return sources.some((entry) => newerThan(path.join(root, entry), built));
}

function newerThan(file, time) {
  if (!fs.existsSync(file)) return false;
  const stat = fs.statSync(file);
  if (stat.mtimeMs > time) return true;
  if (!stat.isDirectory() || file.endsWith("generated")) return false;
  return fs.readdirSync(file).some((name) => newerThan(path.join(file, name), time));
}
