import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answer,
  diffOf,
  done,
  entries,
  openPermission,
  permissionEntry,
  presetProfile,
  realAgentWorld,
  runOf,
  said,
  startRun,
  task,
  worktree,
  type RealAgentWorld,
} from "../helpers/real-agents";

// The real Codex (the shipped @zed-industries/codex-acp) from its preset, against the scripted
// OpenAI Responses fake. The preset writes Codex's own config.toml into the run's private HOME: a
// provider whose base_url is the OPENAI_BASE_URL the profile passes through (Codex itself ignores
// that variable), the profile's model, and `approval_policy = "untrusted"`, so its commands ask.

let world: RealAgentWorld;

beforeAll(async () => {
  world = await realAgentWorld("real-codex");
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

describe("Codex from its preset", () => {
  it("asks permission for its command, runs it once allowed, and the file shows in the diff; the profile's model and instructions reach it", async () => {
    const profile = await presetProfile(world, "codex", { model: "gpt-5.4", system_prompt: "Always answer in English." });
    const t = await task(world, "Codex says hello");
    const marker = world.model.script("codex-hello", [
      { tools: [{ name: "exec_command", input: { cmd: "printf 'Hello from Codex\\n' > hello.txt" } }] },
      ({ results }) => ({ text: `Wrote hello.txt (${results.length} result).` }),
    ]);
    const started = await startRun(world, t.id, { instructions: `Write hello.txt. ${marker}`, agent_id: profile.id });

    const question = await openPermission(world, t.id, started.id);
    const asked = await permissionEntry(world, started.id);
    expect(asked.update.tool_call.kind).toBe("execute");
    expect(question.options).toEqual(asked.update.options.map((o: { name: string }) => o.name));
    expect(fs.existsSync(path.join(worktree(world, t.id), "hello.txt"))).toBe(false);
    await answer(world, question.id, asked.update.options.find((o: { kind: string }) => o.kind === "allow_once").name);

    const execution = await done(world, started.id);
    expect(execution).toMatchObject({ status: "succeeded", error_message: null });
    const diff = await diffOf(world, t.id);
    const added = diff.files.find((f) => f.path === "hello.txt")!;
    expect(
      added.hunks
        .flatMap((h) => h.lines)
        .filter((l) => l.type === "add")
        .map((l) => l.text),
    ).toEqual(["Hello from Codex"]);

    const log = await entries(world, started.id);
    expect(said(log)).toContain("Wrote hello.txt (1 result).");
    expect(log.some((e) => e.type === "tool_call" && e.update.kind === "execute")).toBe(true);
    // Codex reports how full its context is (usage_update), not token counts on the turn.
    expect(log.find((e) => e.type === "usage_update")?.update.used).toBeGreaterThan(0);
    const run = await runOf(world, t.id);
    expect(run.model).toBe("gpt-5.4");
    const played = world.model.played("codex-hello");
    expect(played.map((r) => r.step)).toEqual([0, 1]);
    expect(played[0].path).toBe("/v1/responses");
    expect(played[0].body.model).toBe("gpt-5.4");
    expect(played[0].headers.authorization).toBe("Bearer sk-test-key");
    expect(JSON.stringify(played[0].body.input)).toContain("Always answer in English.");
  }, 180_000);
});
