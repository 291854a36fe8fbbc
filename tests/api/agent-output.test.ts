import { beforeAll, expect, it } from "vitest";
import { agentWorkspace, eventually, newTask } from "../helpers/engine";

// What an agent prints reaches its log, whatever it is and however soon the agent exits. Both once
// ended a run "succeeded" with no output at all: a NUL (binary output, `find -print0`) made the
// server refuse the runner's whole log request, since PostgreSQL cannot store U+0000 (now U+FFFD,
// lib/runs/without-nul.ts); and Node discards a child's output that nothing reads by the time it
// exits, which the runner read only after reporting the agent's pid (lib/runner-process/run-job.ts).

let server: Awaited<ReturnType<typeof agentWorkspace>>["server"];
let token: string;
let wsId: string;

beforeAll(async () => {
  // printf's own escapes: a NUL between "a" and "b", then a second line.
  ({ server, token, wsId } = await agentWorkspace({ command: "/usr/bin/printf", args: ["a\\000b\\nafter\\n"] }));
});

it("keeps every line of an agent that prints a NUL, with U+FFFD in its place", async () => {
  const task = await newTask(server.call, token, wsId, { title: "binary output" });
  const run = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token });
  expect(run.status).toBe(202);
  const over = await eventually(async () => {
    const execution = (await server.call("GET", `/api/workspaces/${wsId}/executions/${run.body.id}`, { token })).body;
    return ["queued", "running"].includes(execution.status) ? undefined : execution;
  }, 30_000);
  expect({ status: over.status, error: over.error_message }).toEqual({ status: "succeeded", error: null });
  const log = (await server.call("GET", `/api/workspaces/${wsId}/executions/${run.body.id}/log`, { token })).body;
  const output = log.entries.filter((entry: { type: string }) => entry.type === "output");
  expect(output.map((entry: { update: { text: string } }) => entry.update.text)).toEqual(["a\uFFFDb", "after"]);
  expect(over.line_count).toBe(log.entries.length);
});
