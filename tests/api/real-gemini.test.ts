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

// The real Gemini CLI (the shipped @google/gemini-cli, `gemini --acp`) from its preset, against the
// scripted Gemini fake at GOOGLE_GEMINI_BASE_URL (passed through). The preset writes its
// settings.json (API-key auth, no telemetry, the profile's model) into the run's private HOME.

let world: RealAgentWorld;

beforeAll(async () => {
  world = await realAgentWorld("real-gemini");
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

describe("Gemini CLI from its preset", () => {
  it("asks permission for its write_file, writes the new file once allowed (the diff shows it), and records usage and the model", async () => {
    const profile = await presetProfile(world, "gemini", { model: "gemini-2.5-flash", system_prompt: "Keep files short." });
    const t = await task(world, "Gemini says hello");
    const file = path.join(worktree(world, t.id), "hello.txt");
    const marker = world.model.script("gemini-hello", [
      { tools: [{ name: "write_file", input: { file_path: file, content: "Hello from Gemini\n" } }], usage: { input: 300, output: 30 } },
      { text: "hello.txt is written.", usage: { input: 400, output: 10 } },
    ]);
    const started = await startRun(world, t.id, { instructions: `Write hello.txt. ${marker}`, agent_id: profile.id });

    const question = await openPermission(world, t.id, started.id);
    const asked = await permissionEntry(world, started.id);
    expect(asked.update.tool_call.kind).toBe("edit");
    expect(asked.update.options.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining(["proceed_always", "proceed_once"]));
    expect(question.options).toEqual(asked.update.options.map((o: { name: string }) => o.name));
    expect(fs.existsSync(file)).toBe(false);
    await answer(world, question.id, asked.update.options.find((o: { id: string }) => o.id === "proceed_once").name);

    const execution = await done(world, started.id);
    expect(execution).toMatchObject({ status: "succeeded", error_message: null });
    expect(fs.readFileSync(file, "utf8")).toBe("Hello from Gemini\n");
    const diff = await diffOf(world, t.id);
    expect(diff.files.find((f) => f.path === "hello.txt")?.status).toBe("added");

    expect(said(await entries(world, started.id))).toContain("hello.txt is written.");
    const run = await runOf(world, t.id);
    expect(run.usage).toMatchObject({ input_tokens: 700, output_tokens: 40 });
    expect(run.model).toBe("gemini-2.5-flash");
    const played = world.model.played("gemini-hello");
    expect(played[0].path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(played[0].headers["x-goog-api-key"]).toBe("gemini-test-key");
    expect(JSON.stringify(played[0].body.systemInstruction)).toContain("Keep files short.");
  }, 180_000);
});
