import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "@/lib/git/parse-diff";
import { rehunk } from "@/lib/git/rehunk";

// A smaller context cut from a diff stored with 50 lines of it must be what git itself prints with
// that context: the same hunks, headers (function lines included) and lines.

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "rehunk-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
}

describe("rehunk", () => {
  it("matches git's own output for every context from 0 to 50", () => {
    git("init", "-q", "-b", "main");
    // Function-like lines (a letter first) among indented ones, so headers carry function lines.
    const before = Array.from({ length: 400 }, (_, i) => (i % 37 === 0 ? `function f${i}() { // ${"x".repeat(i % 90)}` : `    body ${i}`));
    fs.writeFileSync(path.join(root, "code.txt"), `${before.join("\n")}\n`);
    git("add", "-A");
    git("commit", "-q", "-m", "before");
    const after = [...before];
    for (const at of [0, 3, 10, 11, 60, 95, 96, 97, 200, 230, 300, 398]) after[at] = `changed ${at}`;
    after.splice(150, 0, "inserted a", "inserted b");
    after.splice(250, 3);
    fs.writeFileSync(path.join(root, "code.txt"), `${after.join("\n")}\n`);

    const stored = parseUnifiedDiff(git("diff", "--unified=50"))[0].hunks;
    for (let context = 0; context <= 50; context++) {
      const expected = parseUnifiedDiff(git("diff", `--unified=${context}`))[0].hunks;
      expect(rehunk(stored, context, 50), `context ${context}`).toEqual(expected);
    }
  });
});
