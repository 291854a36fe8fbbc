import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Job } from "@/lib/runner-protocol";
import { Runner } from "@/lib/runner-process/runner";
import type { RunnerPort } from "@/lib/runner-process/runner-port";

// The runner's heartbeats (runner.ts), against a port that answers as the server does: it holds a
// heartbeat while none of its runs is to stop and answers at once for a run that is. Once told to
// stop a run, the runner stops naming it: its agent may take the whole kill grace to die, and every
// heartbeat naming it would be answered at once, one after another, for that long.

const GRACE_SECONDS = 2;
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-beats-"));
  vi.stubEnv("RUNNER_PRIVATE_DIR", path.join(dir, "private"));
  // The sandbox has tests of its own; here only the loop around the agents matters.
  vi.stubEnv("AGENT_SANDBOX", "off");
  vi.stubEnv("AGENT_KILL_GRACE_SECONDS", String(GRACE_SECONDS));
});
afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An agent that ignores SIGTERM, so it lives through the kill grace after a cancel. */
function stubbornJob(id: string): Job {
  return {
    execution_id: id,
    task_run_id: `run-${id}`,
    workspace_id: "ws",
    task: { id: `task-${id}`, number: 1, title: id, pr_url: null },
    trigger: "manual",
    session_name: id,
    instructions: "wait",
    log_seq: 0,
    agent_id: null,
    agent: { name: "stubborn", kind: "command", command: "/bin/sh", args: ["-c", "trap '' TERM; sleep 30"], env_passthrough: [] },
    resume_session_id: null,
    token: "tbg_test",
    api_url: "http://127.0.0.1:9",
    mcp_url: "http://127.0.0.1:9/mcp",
    env: {},
    timeout_seconds: 60,
    // A third of it between heartbeats: 300 ms.
    lease_seconds: 0.9,
    repository: null,
  };
}

/** The server's side of the protocol, as far as the loop sees it, keeping every heartbeat it was sent. */
function fakeServer(jobs: Job[]) {
  const beats: { at: number; named: string[] }[] = [];
  const finished = new Map<string, string>();
  const toStop = new Set<string>();
  let wake = () => {};
  let handed = false;
  const port: RunnerPort = {
    async claim() {
      if (handed) return new Promise<Job[]>(() => {}); // nothing more to claim: held open, as the server does
      handed = true;
      return jobs;
    },
    async heartbeat(ids, { seconds, signal }) {
      beats.push({ at: Date.now(), named: ids });
      await sleep(5); // a round trip
      const deadline = Date.now() + seconds * 1000;
      while (!signal.aborted && Date.now() < deadline && !ids.some((id) => toStop.has(id))) {
        await Promise.race([sleep(Math.max(0, deadline - Date.now())), new Promise<void>((resolve) => (wake = resolve))]);
      }
      return ids.filter((id) => toStop.has(id)).map((id) => ({ id, reason: "cancelled by a person" }));
    },
    async log() {},
    async update() {},
    async ask() {
      throw new Error("not asked in this test");
    },
    async answer() {
      throw new Error("not asked in this test");
    },
    async settle() {},
    async remote() {
      throw new Error("no repository in this test");
    },
    async diff() {},
    async bundle() {
      throw new Error("no repository in this test");
    },
    async finish(id, outcome) {
      finished.set(id, `${outcome.status}: ${outcome.error_message ?? ""}`);
    },
  };
  return {
    port,
    beats,
    finished,
    cancel(id: string) {
      toStop.add(id);
      wake();
    },
  };
}

describe("the runner's heartbeats", () => {
  it("stop naming a run once told to stop it, while its agent takes the kill grace to die", async () => {
    const server = fakeServer([stubbornJob("told"), stubbornJob("other")]);
    const runner = new Runner(server.port, { capacity: 2, heartbeatMs: 5000 });
    runner.start();
    await vi.waitFor(() => expect(server.beats.at(-1)?.named.sort()).toEqual(["other", "told"]), { timeout: 10_000 });

    const cancelled = Date.now();
    server.cancel("told");
    await vi.waitFor(() => expect(server.finished.get("told")).toMatch(/^cancelled: cancelled by a person/), {
      timeout: (GRACE_SECONDS + 8) * 1000,
    });
    // The agent ignored SIGTERM: the run ended only when the grace was over and SIGKILL came.
    expect(Date.now() - cancelled).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 200);

    const after = server.beats.filter((beat) => beat.at > cancelled);
    // Named once more at most: the heartbeat that carried the answer. After it, only the other run,
    // each heartbeat held for its 300 ms, not answered at once over and over through the grace.
    expect(after.filter((beat) => beat.named.includes("told")).length).toBeLessThanOrEqual(1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThanOrEqual(Math.ceil((Date.now() - cancelled) / 300) + 3);
    expect(after.at(-1)?.named).toEqual(["other"]);

    server.cancel("other");
    await runner.stop(0);
    expect(server.finished.get("other")).toMatch(/^cancelled/);
  }, 30_000);
});
