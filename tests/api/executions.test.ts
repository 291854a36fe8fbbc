import { beforeAll, describe, expect, it } from "vitest";
import { finished, fixtureAgentWorkspace, newTask, outputLines } from "../helpers/engine";

// Fix conflicts (the interface's row 9) and the execution routes, with the fixture agent; a fix's
// instructions come from the template, so the task's title tells the fixture what to do. On the
// shared server, in a workspace whose default agent is the fixture.

let server: Awaited<ReturnType<typeof fixtureAgentWorkspace>>["server"];
let token: string;
let wsId: string;
const PR = "https://github.com/acme/app/pull/42";

beforeAll(async () => {
  ({ server, token, wsId } = await fixtureAgentWorkspace());
});

const base = () => `/api/workspaces/${wsId}`;
const fix = (taskId: string, query = "") => server.call("POST", `${base()}/tasks/${taskId}/fix-conflicts${query}`, { token });

async function conflicted(title: string, status = "in_progress") {
  const task = await newTask(server.call, token, wsId, { title, status, pr_url: PR });
  const patched = await server.call("PATCH", `${base()}/tasks/${task.id}`, { token, json: { has_merge_conflict: true } });
  expect(patched.body.has_merge_conflict).toBe(true);
  return task;
}

describe("POST /tasks/{task_id}/fix-conflicts", () => {
  // With a repository: the merge itself, its agent, push and the conflict's clearing are in
  // tests/api/worktrees.test.ts. This workspace has none, as a deployment that never connected one.
  it("without a repository, starts the agent with the pull request and the instructions to merge and push itself", async () => {
    const task = await conflicted("env");
    const started = await fix(task.id);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ id: expect.any(String), task_id: task.id, keep_status: false });
    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done.status).toBe("succeeded");

    const lines = outputLines((await server.call("GET", `${base()}/executions/${done.id}/log`, { token })).body);
    expect(lines).toEqual(expect.arrayContaining(["TASKBOARD_TRIGGER=fix_conflicts", `TASKBOARD_PR_URL=${PR}`, `Pull request: ${PR}`]));
    const told = JSON.parse(lines.find((line) => line.startsWith("TASKBOARD_INSTRUCTIONS="))!.slice("TASKBOARD_INSTRUCTIONS=".length));
    expect(told).toContain('The pull request of the task "env" has merge conflicts with its base branch.');
    expect(told).toContain(`Pull request: ${PR}`);
    expect(told).toContain("check out the pull request's branch and fetch the latest base branch");
    expect(told).toContain("push the branch, so that the pull request no longer has conflicts");
    expect(told).not.toContain("git reported conflicts in");
    const after = await server.call("GET", `${base()}/tasks/${task.id}`, { token });
    expect(after.body).toMatchObject({ has_merge_conflict: false, status: "in_review", latest_run_trigger: "fix_conflicts" });
  });

  it("answers 409 in words without a pull request or without a conflict", async () => {
    const bare = await newTask(server.call, token, wsId, { title: "no pr" });
    await server.call("PATCH", `${base()}/tasks/${bare.id}`, { token, json: { has_merge_conflict: true } });
    expect(await fix(bare.id)).toMatchObject({
      status: 409,
      body: { detail: "The task has no pull request (pr_url) whose conflicts the agent could fix" },
    });
    const clean = await newTask(server.call, token, wsId, { title: "no conflict", pr_url: PR });
    await server.call("PATCH", `${base()}/tasks/${clean.id}`, { token, json: { branch: "feature/x" } });
    const noConflict = await fix(clean.id);
    expect(noConflict.status).toBe(409);
    expect(noConflict.body.detail).toMatch(/merge conflict/);
  });

  it("answers 404 for an unknown task and 422 for a bad keep_status", async () => {
    expect((await fix("missing")).body).toEqual({ detail: "Task not found" });
    const task = await conflicted("succeed later");
    const bad = await fix(task.id, "?keep_status=perhaps");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["query", "keep_status"], type: "bool_parsing" });
  });
});

describe("execution routes", () => {
  it("are visible only to members of the execution's workspace", async () => {
    const task = await newTask(server.call, token, wsId, { title: "private" });
    const started = await server.call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: { instructions: "succeed" } });
    await finished(server.call, token, wsId, started.body.id);
    const other = await server.call("POST", "/api/workspaces", { token, json: { name: "other" } });
    const elsewhere = `/api/workspaces/${other.body.id}/executions/${started.body.id}`;
    expect((await server.call("GET", elsewhere, { token })).body).toEqual({ detail: "Execution not found" });
    expect((await server.call("GET", `${elsewhere}/log`, { token })).status).toBe(404);
    expect((await server.call("POST", `${elsewhere}/cancel`, { token })).status).toBe(404);
    expect((await server.call("GET", `${base()}/executions/${started.body.id}`)).status).toBe(401);
  });

  it("serves the log from an offset, with next_offset to continue from", async () => {
    const task = await newTask(server.call, token, wsId, { title: "log" });
    const started = await server.call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: { instructions: "tail" } });
    const done = await finished(server.call, token, wsId, started.body.id);
    // The prompt entry, then 120 lines.
    expect(done.line_count).toBe(121);
    const page = await server.call("GET", `${base()}/executions/${done.id}/log?offset=101&limit=5`, { token });
    expect(page.body).toMatchObject({
      execution_id: done.id,
      status: "succeeded",
      offset: 101,
      next_offset: 106,
      line_count: 121,
      complete: false,
    });
    expect(page.body.entries.map((e: { seq: number }) => e.seq)).toEqual([101, 102, 103, 104, 105]);
    expect(outputLines(page.body)).toEqual(["tail line 100", "tail line 101", "tail line 102", "tail line 103", "tail line 104"]);
    const end = await server.call("GET", `${base()}/executions/${done.id}/log?offset=121`, { token });
    expect(end.body).toMatchObject({ entries: [], next_offset: 121, complete: true });
  });
});
