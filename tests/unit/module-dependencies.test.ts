import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Dependencies between domains run one way: the runner (lib/runner) uses the runs API's modules
// (statuses, finishing an execution, agent token naming, the runner handle); lib/runs never
// imports lib/runner, so neither can be changed with the other half-loaded.

const root = path.resolve(import.meta.dirname, "../..");

function importsOf(dir: string): { file: string; from: string }[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .flatMap((file) => {
      const text = fs.readFileSync(path.join(root, dir, file), "utf8");
      return [...text.matchAll(/^import[^;]*?from "([^"]+)"/gms)].map((match) => ({ file: `${dir}/${file}`, from: match[1] }));
    });
}

describe("module dependencies", () => {
  it("lib/runs does not import lib/runner", () => {
    expect(importsOf("lib/runs").filter(({ from }) => from.startsWith("@/lib/runner"))).toEqual([]);
  });

  it("the runner reaches the runs API's shared modules", () => {
    const used = new Set(importsOf("lib/runner").map(({ from }) => from));
    for (const shared of ["@/lib/runs/statuses", "@/lib/runs/finish-execution", "@/lib/runs/runner-handle"]) expect(used).toContain(shared);
  });
});
