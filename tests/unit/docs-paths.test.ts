import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Docs go stale silently when a file moves: every repository path the README and docs/ name must
// exist. A path is what a backticked span or a link names (a span is read word by word, so
// `node scripts/x.mjs` counts) when it starts with a top folder of the repository, or is one of its
// top-level files. Placeholders (`<name>`, `{id}`, `*`, `…`) end the checked part: such a path is
// checked up to its last concrete directory. A Next.js dynamic segment (`[task_id]`) must exist as
// written, or as some `[…]` folder at that place. Fenced code blocks are examples, not read. And
// docs/README.md, the index, links every page.

const root = path.resolve(import.meta.dirname, "../..");

const TOP_FOLDERS = ["app", "components", "lib", "prisma", "scripts", "tests", "docs", "public"];
const TOP_FILE = /^(package(-lock)?\.json|tsconfig\.json|[\w-]+\.config\.(ts|mts|mjs|js)|proxy\.ts|instrumentation\.ts|README\.md)$/;
/** Made by the build, the tests or the server: absent from a fresh clone, so not checked. */
const GENERATED = ["tests/artifacts/", "lib/generated/", "node_modules/", ".next/", "data/"];
const PLACEHOLDER = /[<>{}*…]|\.\.\./;

function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file));
  return ["README.md", ...docs];
}

/** Repository paths a markdown text names, relative to the root; `file` is the text's own path. */
function namedPaths(text: string, file: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, "");
  const found = new Set<string>();
  for (const [, span] of prose.matchAll(/`([^`\n]+)`/g)) {
    for (const word of span.split(/\s+/)) {
      const candidate = word.replace(/[,;:.)]+$/, "").replace(/:\d+$/, "");
      const first = candidate.split("/")[0];
      if ((TOP_FOLDERS.includes(first) && candidate.includes("/")) || TOP_FILE.test(candidate)) found.add(candidate);
    }
  }
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target.split("#")[0]));
    if (resolved.startsWith("../")) continue; // outside the repository (the interface document)
    found.add(resolved);
  }
  return [...found].filter((named) => !GENERATED.some((prefix) => named.startsWith(prefix)));
}

/** Whether `named` exists, placeholders and dynamic segments allowed as described above. */
function exists(named: string): boolean {
  let dir = root;
  for (const segment of named.split("/").filter(Boolean)) {
    if (PLACEHOLDER.test(segment)) return fs.existsSync(dir) && fs.statSync(dir).isDirectory();
    const literal = path.join(dir, segment);
    if (fs.existsSync(literal)) {
      dir = literal;
      continue;
    }
    if (!/^\[.+\]$/.test(segment) || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return false;
    const dynamic = fs.readdirSync(dir).find((entry) => /^\[.+\]$/.test(entry));
    if (!dynamic) return false;
    dir = path.join(dir, dynamic);
  }
  return true;
}

describe("paths named in the docs", () => {
  it("reads paths from spans and links, and checks placeholders up to their last concrete folder", () => {
    const text = [
      "Run `node scripts/start.mjs`, see `lib/<domain>/<verb>-<noun>.ts`, [events](events.md#shape),",
      "`app/api/workspaces/[workspace_id]/route.ts`, [spec](../../shared/spec.md), `DATA_DIR/pglite`.",
      "```sh\nnode scripts/not-read.mjs\n```",
    ].join("\n");
    expect(namedPaths(text, "docs/x.md").sort()).toEqual(
      ["app/api/workspaces/[workspace_id]/route.ts", "docs/events.md", "lib/<domain>/<verb>-<noun>.ts", "scripts/start.mjs"].sort(),
    );
    expect(exists("lib/<domain>/<verb>-<noun>.ts")).toBe(true);
    expect(exists("app/api/workspaces/[workspace_id]/route.ts")).toBe(true);
    expect(exists("lib/nowhere/<name>.ts")).toBe(false);
    expect(exists("lib/events/record.ts")).toBe(false);
  });

  it("every path the README and docs/ name exists", () => {
    const missing = markdownFiles().flatMap((file) =>
      namedPaths(fs.readFileSync(path.join(root, file), "utf8"), file)
        .filter((named) => !exists(named))
        .map((named) => `${file}: ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it("docs/README.md links every page under docs/", () => {
    const index = namedPaths(fs.readFileSync(path.join(root, "docs/README.md"), "utf8"), "docs/README.md");
    const pages = markdownFiles().filter((file) => file.startsWith("docs/") && file !== "docs/README.md");
    expect(pages.filter((page) => !index.includes(page))).toEqual([]);
  });
});
