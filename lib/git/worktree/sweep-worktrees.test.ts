import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDirectory } from "@/lib/git/worktree/sweep-worktrees";

// What the sweep deletes for a worktree record: only the directory the server derives itself for
// the task (AGENT_WORKDIR), for its embedded runner's records, never a symlink, never a reported path.

let root: string;
const saved = process.env.AGENT_WORKDIR;
const record = (taskId: string, reported: string, runnerId: string | null = "embedded") => ({
  task_id: taskId,
  workspace_id: "ws",
  path: reported,
  runner_id: runnerId,
});

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sweep-own-")));
  process.env.AGENT_WORKDIR = path.join(root, "work", "{workspace_id}", "{task_id}");
  for (const task of ["t1", "t2"]) fs.mkdirSync(path.join(root, "work", "ws", task), { recursive: true });
  fs.mkdirSync(path.join(root, "outside"));
  fs.symlinkSync(path.join(root, "outside"), path.join(root, "work", "ws", "linked"));
});

afterAll(() => {
  if (saved === undefined) delete process.env.AGENT_WORKDIR;
  else process.env.AGENT_WORKDIR = saved;
  fs.rmSync(root, { recursive: true, force: true });
});

describe("ownDirectory", () => {
  it("is the derived directory of the embedded runner's record, and of a record from before runners were recorded", () => {
    const derived = path.join(root, "work", "ws", "t1");
    expect(ownDirectory(record("t1", derived), "embedded")).toBe(derived);
    expect(ownDirectory(record("t1", derived, null), "embedded")).toBe(derived);
  });

  it("is nothing for a path a runner named, another task's directory, or a remote runner's record", () => {
    expect(ownDirectory(record("t1", path.join(root, "outside")), "embedded")).toBeNull();
    expect(ownDirectory(record("t1", path.join(root, "work", "ws", "t2")), "embedded")).toBeNull();
    expect(ownDirectory(record("t1", path.join(root, "work", "ws", "t1"), "remote"), "embedded")).toBeNull();
    expect(ownDirectory(record("t1", path.join(root, "work", "ws", "t1"), "remote"), null)).toBeNull();
  });

  it("is nothing when the derived path is a symlink or missing", () => {
    expect(ownDirectory(record("linked", path.join(root, "work", "ws", "linked")), "embedded")).toBeNull();
    expect(ownDirectory(record("gone", path.join(root, "work", "ws", "gone")), "embedded")).toBeNull();
  });
});
