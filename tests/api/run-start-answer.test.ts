import { describe, expect, it } from "vitest";
import { newTask } from "../helpers/engine";
import { dedicatedRunnerWorkspace } from "../helpers/claims";

// What a run's start answers (docs/api.md, "A run's start: Prefer: respond-async"): once a runner that may take the run
// has started its agent, so the answer says `running`, unless the request prefers an answer at once
// (`Prefer: respond-async`, RFC 7240). On the shared server, with a dedicated runner the test drives.

describe("the answer to a run's start", () => {
  it("waits for the runner to start the agent, or with Prefer: respond-async says queued at once", async () => {
    const { server, ws, runner } = await dedicatedRunnerWorkspace("start answers", { capacity: 2 });
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const start = async (title: string, prefer?: string) => {
      const task = await newTask(server.call, ws.token, ws.wsId, { title });
      return server.call("POST", `/api/workspaces/${ws.wsId}/tasks/${task.id}/runs`, {
        token: ws.token,
        // Only the preference under test (the tests' client sends wait=reactions otherwise).
        waitForReactions: false,
        headers: prefer ? { prefer } : {},
      });
    };

    // The runner is online with room and takes nothing until told: the answer does not wait for it.
    const quick = await start("answered at once", "respond-async");
    expect(quick.status).toBe(202);
    expect(quick.headers.get("preference-applied")).toBe("respond-async");
    expect(quick.body).toMatchObject({ status: "queued", waiting_for_runner: null });

    // Without the preference the answer waits: the runner takes the run and reports its agent
    // started while the request is open, and the answer says so.
    const answer = start("answered once started");
    let claimed: string | null = null;
    while (!claimed) {
      const job = await runner.call("POST", "/claim", { version: "test-1", sandbox: "bubblewrap", free: 2, wait_seconds: 1 });
      const id = job.body.job?.execution_id as string | undefined;
      if (id && id === quick.body.id) await runner.finish(id);
      else if (id) claimed = id;
    }
    expect((await runner.call("PATCH", `/executions/${claimed}`, { runner_pid: 4242 })).status).toBe(204);
    const waited = await answer;
    expect(waited.status).toBe(202);
    expect(waited.headers.get("preference-applied")).toBeNull();
    expect(waited.body).toMatchObject({ id: claimed, status: "running", runner_pid: 4242 });
    await runner.finish(claimed);

    // A fix-conflicts start honours it the same way.
    const task = await newTask(server.call, ws.token, ws.wsId, { title: "conflicted", pr_url: "https://github.com/acme/app/pull/7" });
    const url = `/api/workspaces/${ws.wsId}/tasks/${task.id}`;
    expect((await server.call("PATCH", url, { token: ws.token, json: { has_merge_conflict: true } })).status).toBe(200);
    const fix = await server.call("POST", `${url}/fix-conflicts`, { token: ws.token, headers: { prefer: "respond-async" } });
    expect(fix.status).toBe(202);
    expect(fix.headers.get("preference-applied")).toBe("respond-async");
    expect(fix.body).toMatchObject({ status: "queued" });
    const job = await runner.call("POST", "/claim", { version: "test-1", sandbox: "bubblewrap", free: 2, wait_seconds: 1 });
    expect(job.body.job.execution_id).toBe(fix.body.id);
    await runner.finish(fix.body.id);
    await runner.remove();
  });
});
