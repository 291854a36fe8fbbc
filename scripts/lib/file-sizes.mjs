// Measures what issue #22 asks to keep small: source files (at most 300 lines) and React components
// (at most 150 lines). Generated code and migrations are exempt: nobody reads them to change them.
import fs from "node:fs";
import path from "node:path";

export const MAX_FILE_LINES = 300;
export const MAX_COMPONENT_LINES = 150;

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const SKIPPED_DIRS = new Set([
  "node_modules",
  ".next",
  ".git",
  "data",
  "migrations",
  "generated",
  "artifacts",
  "test-results",
  "playwright-report",
]);
const GENERATED = new Set(["next-env.d.ts"]);

export function sourceFiles(root, dir = "") {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith(".") ? [] : sourceFiles(root, rel);
    return SOURCE.test(entry.name) && !GENERATED.has(entry.name) ? [rel] : [];
  });
}

// A component is a top-level function in a .tsx file whose name starts with a capital letter; Prettier
// puts its closing brace alone at the start of a line, which is where it ends.
export function componentsOf(text) {
  const lines = text.split("\n");
  const found = [];
  lines.forEach((line, start) => {
    const match = /^(?:export )?(?:default )?(?:function ([A-Z]\w*)|const ([A-Z]\w*) = (?:\(|memo\(|forwardRef\())/.exec(line);
    if (!match) return;
    let end = start;
    while (end < lines.length && !/^[})]/.test(lines[end])) end++;
    found.push({ name: match[1] ?? match[2], lines: end - start + 1 });
  });
  return found;
}

export function sizeReport(root) {
  const files = [];
  const components = [];
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const count = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (count > MAX_FILE_LINES) files.push({ file, lines: count });
    if (file.endsWith(".tsx"))
      for (const component of componentsOf(text)) if (component.lines > MAX_COMPONENT_LINES) components.push({ file, ...component });
  }
  return { files, components };
}
