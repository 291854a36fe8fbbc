import fs from "node:fs";
import path from "node:path";

// The import graph of the application's source (lib/, app/, components/), for
// tests/unit/module-dependencies.test.ts. Type-only imports count: they are erased at run time, but
// they still tie one folder to another, and a folder pair that only types each other is as hard to
// change separately as one that calls each other. Unit tests (*.test.ts) are left out: they may
// import whatever they test against.

export type Edge = { from: string; to: string };

const SOURCE_DIRS = ["lib", "app", "components"];
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s(?:[^;"']*?\sfrom\s)?\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function sourceFiles(root: string): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .map((file) => `${dir}/${file.split(path.sep).join("/")}`)
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith("lib/generated/")),
  );
}

function resolve(root: string, importer: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    const full = path.join(root, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return null;
}

/** `values`: only the imports that load a module at run time (`import type` and `export type` left out). */
export function importGraph(root: string, { values = false } = {}): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      if (values && /^\s*(import|export)\s+type\s/.test(match[0])) continue;
      const target = resolve(root, file, match[1] ?? match[2]);
      if (target && target !== file) targets.add(target);
    }
    for (const to of targets) edges.push({ from: file, to });
  }
  return edges;
}

/** Every file `start` reaches through `edges`, itself left out. */
export function reachable(start: string, edges: Edge[]): string[] {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const { from, to } of edges) {
      if (from === node && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  seen.delete(start);
  return [...seen].sort();
}

/** Tarjan's strongly connected components with more than one file: each is at least one import cycle. */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * The graph between groups of files (folders): an edge a → b for every pair of groups one of whose
 * files imports one of the other's, once. A file whose group is null is left out.
 */
export function groupGraph(edges: Edge[], groupOf: (file: string) => string | null): Edge[] {
  const seen = new Map<string, Edge>();
  for (const { from, to } of edges) {
    const [a, b] = [groupOf(from), groupOf(to)];
    if (a && b && a !== b) seen.set(`${a} → ${b}`, { from: a, to: b });
  }
  return [...seen.values()];
}

/** One cycle through the component's first file, as a readable path a → b → … → a. */
export function describeCycle(component: string[], edges: Edge[]): string {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>([[start, ""]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const { from, to } of edges) {
      if (from !== node || !inside.has(to)) continue;
      if (to === start) {
        const trail = [node];
        while (previous.get(trail[0])) trail.unshift(previous.get(trail[0])!);
        return [...trail, start].join(" → ");
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return component.join(", ");
}
