import fs from "node:fs";
import os from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answer,
  done,
  openPermission,
  permissionEntry,
  presetProfile,
  realAgentWorld,
  startRun,
  task,
  type RealAgentWorld,
} from "../helpers/real-agents";

// The real Claude Code, from its preset, in the agent sandbox (docs/runners.md): its own tools run
// there too. The model is the scripted Anthropic fake, which the profile's base URL allows.

let world: RealAgentWorld;
let agentId: string;

beforeAll(async () => {
  world = await realAgentWorld("real-claude-sandbox");
  agentId = (await presetProfile(world, "claude-code")).id;
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

describe("Claude Code in the sandbox", () => {
  it("runs inside the sandbox: its own Bash cannot read the server's auth secret, write outside the worktree or reach a host its profile does not allow", async () => {
    const t = await task(world, "Try to leave the sandbox");
    const secretFile = path.join(world.server.dataDir, "auth-secret");
    const secret = fs.readFileSync(secretFile, "utf8").trim();
    // Into the server's installation (not in the sandbox at all), and into its data directory and
    // beside the worktree: under /tmp, where the sandbox has a /tmp of its own, so such a write lands
    // there and is thrown away with it. What counts is that none reaches the host.
    const intoServer = path.join(process.cwd(), `planted-${Date.now()}.txt`);
    const intoData = path.join(world.server.dataDir, "planted.txt");
    const outside = path.join(world.root, "outside.txt");
    // "The internet" for this test: a server on loopback that no profile lists.
    const elsewhere = http.createServer((_request, response) => response.end("reached elsewhere"));
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const port = (elsewhere.address() as AddressInfo).port;
    const command = [
      `cat ${secretFile}; echo "cat=$?"`,
      `echo pwned > ${intoServer}; echo "write=$?"`,
      `echo pwned > ${intoData}`,
      `echo pwned > ${outside}`,
      `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; echo "connect=$?"`,
    ].join("; ");
    const marker = world.model.script("escape", [
      { tools: [{ name: "Bash", input: { command, description: "Look around" } }] },
      ({ results }) => ({ text: `Tried: ${results.join(" ").length} characters back.` }),
    ]);
    try {
      const started = await startRun(world, t.id, { instructions: `Look around. ${marker}`, agent_id: agentId });
      // Claude Code asks before running a shell command: a person allows it.
      const question = await openPermission(world, t.id, started.id);
      const asked = await permissionEntry(world, started.id);
      await answer(world, question.id, asked.update.options.find((o: { kind: string }) => o.kind === "allow_once").name);
      // On a runner process (the embedded one), in its sandbox.
      expect(await done(world, started.id)).toMatchObject({ status: "succeeded", runner_name: expect.stringMatching(/^embedded \(/) });

      // What the shell printed went back to the model as the tool's result.
      const played = world.model.played("escape");
      const result = JSON.stringify(played[played.length - 1].body.messages);
      expect(result).toMatch(/cat=1/);
      expect(result).not.toContain(secret);
      // The installation is outside the sandbox, unless it lies under /tmp itself (a clone in
      // /tmp): then the write lands in the sandbox's own /tmp like the others, and succeeds there.
      if (!process.cwd().startsWith(os.tmpdir() + path.sep)) expect(result).toMatch(/write=[12]/);
      expect(fs.existsSync(intoServer)).toBe(false);
      expect(fs.existsSync(intoData)).toBe(false);
      expect(fs.existsSync(outside)).toBe(false);
      expect(result).toMatch(/connect=1/);
    } finally {
      elsewhere.close();
    }
  }, 180_000);
});
