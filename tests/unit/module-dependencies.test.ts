import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, describeCycle, groupGraph, importGraph, reachable, type Edge } from "@/tests/helpers/import-graph";

// The layer table of docs/architecture.md, enforced. A file belongs to the longest entry that
// prefixes its path; it may import its own layer and lower-numbered ones, never a higher one. On top
// of the table: no import loop of any length, neither between files nor between folders (a file
// directly in lib/, like lib/config.ts, counting as a folder of its own).

const LAYERS: Record<number, string[]> = {
  1: ["lib/platform", "lib/db", "lib/config.ts", "lib/runner-protocol.ts", "lib/crypto", "lib/net", "lib/sandbox", "lib/generated"],
  2: [
    "lib/tasks",
    "lib/runs",
    "lib/questions",
    "lib/projects",
    "lib/dependencies",
    "lib/schedules",
    "lib/workspaces",
    "lib/users",
    "lib/invitations",
    "lib/auth",
    "lib/agents",
    "lib/repositories",
    "lib/worktrees",
    "lib/webhooks",
    "lib/activity",
    "lib/comments",
    "lib/events",
    "lib/notifications",
  ],
  3: ["lib/github/client", "lib/github/connection", "lib/git", "lib/slack", "lib/email", "lib/push"],
  4: [
    "lib/github/sync",
    "lib/reactions",
    "lib/runner-process",
    "lib/dispatch",
    "lib/scheduler",
    "lib/server",
    "lib/webhooks/deliver-webhooks.ts",
    "lib/notifications/notification-worker.ts",
    "lib/oauth",
  ],
  5: ["lib/api", "lib/mcp", "lib/openapi", "lib/client", "app", "components"],
};

// Imports the table forbids that stay until a redesign; each says why.
const EXCEPTIONS: (Edge & { reason: string })[] = [];

const root = path.resolve(import.meta.dirname, "../..");
const entries = Object.entries(LAYERS).flatMap(([layer, prefixes]) => prefixes.map((prefix) => ({ prefix, layer: Number(layer) })));

function entryOf(file: string) {
  const matching = entries.filter(({ prefix }) => file === prefix || file.startsWith(`${prefix}/`));
  return matching.sort((a, b) => b.prefix.length - a.prefix.length)[0];
}

// Constants only (no zod, no database), shared with the browser: any folder may name them without
// tying itself to the folder they sit in.
const VOCABULARY = ["lib/events/event-types.ts", "lib/tasks/columns.ts", "lib/runs/statuses.ts"];

/**
 * The folder a file counts in for folder loops: lib/<name>, or lib/github/<part> for GitHub's three
 * parts; a file directly in lib/ (lib/config.ts) counts on its own, and app/ and components/ each as one.
 */
function folderOf(file: string): string | null {
  if (VOCABULARY.includes(file)) return null;
  const parts = file.split("/");
  if (parts[0] !== "lib") return parts[0];
  if (parts.length === 2) return file;
  return parts[1] === "github" && parts.length > 3 ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
}

/** A loop of folders as a readable path, with the file imports that tie its folders together. */
function describeFolderLoop(component: string[], folderEdges: Edge[], fileEdges: Edge[]): string {
  const inside = new Set(component);
  const ties = fileEdges
    .filter(({ from, to }) => folderOf(from) !== folderOf(to) && inside.has(folderOf(from)!) && inside.has(folderOf(to)!))
    .map(({ from, to }) => `${from} → ${to}`);
  return [describeCycle(component, folderEdges), ...ties.map((tie) => `  ${tie}`)].join("\n");
}

const excused = new Set(EXCEPTIONS.map(({ from, to }) => `${from} → ${to}`));
const allEdges = importGraph(root);
const edges = allEdges.filter(({ from, to }) => !excused.has(`${from} → ${to}`));

describe("module dependencies", () => {
  it("finds a cycle and names it", () => {
    const planted = [
      { from: "a.ts", to: "b.ts" },
      { from: "b.ts", to: "c.ts" },
      { from: "c.ts", to: "a.ts" },
      { from: "c.ts", to: "d.ts" },
    ];
    expect(cycles(planted)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(describeCycle(["a.ts", "b.ts", "c.ts"], planted)).toBe("a.ts → b.ts → c.ts → a.ts");
  });

  it("finds a loop of folders of any length, a file directly in lib/ counting as one", () => {
    const planted = [
      { from: "lib/a/one.ts", to: "lib/b/two.ts" },
      { from: "lib/b/three.ts", to: "lib/config.ts" },
      { from: "lib/config.ts", to: "lib/a/four.ts" },
      { from: "lib/a/four.ts", to: "lib/c/five.ts" },
    ];
    const folders = groupGraph(planted, folderOf);
    expect(cycles(planted)).toEqual([]);
    expect(cycles(folders)).toEqual([["lib/a", "lib/b", "lib/config.ts"]]);
    expect(describeFolderLoop(["lib/a", "lib/b", "lib/config.ts"], folders, planted)).toBe(
      [
        "lib/a → lib/b → lib/config.ts → lib/a",
        "  lib/a/one.ts → lib/b/two.ts",
        "  lib/b/three.ts → lib/config.ts",
        "  lib/config.ts → lib/a/four.ts",
      ].join("\n"),
    );
  });

  it("every source file has a layer", () => {
    const files = new Set(allEdges.flatMap(({ from, to }) => [from, to]));
    expect([...files].filter((file) => !entryOf(file))).toEqual([]);
  });

  it("no import goes to a higher layer", () => {
    const against = edges
      .filter(({ from, to }) => entryOf(from).layer < entryOf(to).layer)
      .map(({ from, to }) => `${from} (layer ${entryOf(from).layer}) → ${to} (layer ${entryOf(to).layer})`);
    expect(against).toEqual([]);
  });

  it("no file-level import cycle", () => {
    expect(cycles(edges).map((component) => describeCycle(component, edges))).toEqual([]);
  });

  it("no import loop between folders, of any length", () => {
    const folders = groupGraph(edges, folderOf);
    expect(cycles(folders).map((component) => describeFolderLoop(component, folders, edges))).toEqual([]);
  });

  it("the exceptions are still needed", () => {
    const present = new Set(allEdges.map(({ from, to }) => `${from} → ${to}`));
    expect([...excused].filter((edge) => !present.has(edge))).toEqual([]);
  });

  it("docs/architecture.md's layer table is this one", () => {
    const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    const documented: Record<number, string[]> = {};
    for (const [, layer, cell] of doc.matchAll(/^\| \*\*(\d)\. [^|]*\|[^|]*\| ([^|]*) \|/gm)) {
      documented[Number(layer)] = [...cell.matchAll(/`([^`]+)`/g)].map(([, p]) => p.replace(/\/$/, ""));
    }
    expect(documented).toEqual(LAYERS);
  });

  it("the runner protocol's contract imports zod and the platform's building blocks, nothing else", () => {
    const text = fs.readFileSync(path.join(root, "lib/runner-protocol.ts"), "utf8");
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm)].map(([, specifier]) => specifier);
    expect(specifiers.filter((specifier) => specifier !== "zod" && !specifier.startsWith("@/lib/platform/"))).toEqual([]);
  });

  it("the runner reaches the server's side of the protocol only through the contract", () => {
    expect(allEdges.filter(({ from, to }) => from.startsWith("lib/runner-process/") && to.startsWith("lib/dispatch/"))).toEqual([]);
  });

  it("a runner process loads no domain's schemas and no database client", () => {
    const loaded = reachable("lib/runner-process/main.ts", importGraph(root, { values: true }));
    expect(loaded.filter((file) => /^lib\/[^/]+\/schemas\.ts$/.test(file) || /^lib\/(db|generated)\//.test(file))).toEqual([]);
  });

  it("lib/runs does not import lib/runner-process", () => {
    expect(allEdges.filter(({ from, to }) => from.startsWith("lib/runs/") && to.startsWith("lib/runner-process/"))).toEqual([]);
  });
});
