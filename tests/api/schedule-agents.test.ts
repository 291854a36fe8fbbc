import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, client, newUser, newWorkspace, uniqueName } from "../helpers/api";
import { finished } from "../helpers/engine";
import { createTask } from "../helpers/tasks";

// A schedule's agent profile and its one task: each trigger a new attempt with that profile
// (docs/agents.md, "Schedules"). The rest of the schedule routes: schedules.test.ts.

describe("a schedule's agent profile (agent_id)", () => {
  // Only server administrators make profiles (a profile is a command the server runs): this owner is one.
  let admin: Awaited<ReturnType<typeof newUser>>;
  let own: { id: string };
  const url = (path = "") => `/api/workspaces/${own.id}${path}`;
  const as = (method: string, path: string, json?: unknown) => call(method, url(path), { token: admin.token, json });
  const profile = async (name: string) => (await as("POST", "/agents", { name: uniqueName(name), kind: "command", command: "true" })).body;

  beforeAll(async () => {
    admin = await newUser({ isAdmin: true });
    own = await newWorkspace(admin.token);
  });

  it("runs with the schedule's profile on its own task, each trigger a new attempt; null means the workspace's default", async () => {
    const agent = await profile("nightly-agent");
    const task = await createTask(admin.token, own.id, { title: "Nightly dependency bump" });
    const schedule = await as("POST", "/schedules", { name: uniqueName("Bump"), cron: "0 3 * * *", task_id: task.id, agent_id: agent.id });
    expect(schedule.status).toBe(201);
    expect(schedule.body).toMatchObject({ agent_id: agent.id, task_id: task.id });

    const first = await as("POST", `/schedules/${schedule.body.id}/trigger`);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      task_id: task.id,
      task_number: task.number,
      task_title: "Nightly dependency bump",
      attempt_number: 1,
    });
    expect((await as("GET", `/executions/${first.body.execution_id}`)).body.agent_id).toBe(agent.id);

    // The "true" agent ends at once; the next trigger is a second attempt on the same task, not a new card.
    await finished(client(baseUrl()), admin.token, own.id, first.body.execution_id);
    const second = await as("POST", `/schedules/${schedule.body.id}/trigger`);
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ task_id: task.id, attempt_number: 2 });

    const cleared = await as("PATCH", `/schedules/${schedule.body.id}`, { agent_id: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.agent_id).toBeNull();
  });

  it("404 for a profile of another workspace or none; deleting the profile leaves the schedule on the default", async () => {
    const theirs = await newWorkspace(admin.token);
    const foreign = (
      await call("POST", `/api/workspaces/${theirs.id}/agents`, {
        token: admin.token,
        json: { name: "theirs", kind: "command", command: "true" },
      })
    ).body;
    expect(typeof foreign.id).toBe("string");
    for (const agent_id of [foreign.id, "no-such-profile"]) {
      const res = await as("POST", "/schedules", { name: uniqueName("Foreign"), cron: "0 3 * * *", agent_id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Agent not found" });
    }
    const agent = await profile("short-lived");
    const schedule = (await as("POST", "/schedules", { name: uniqueName("Orphan"), cron: "0 3 * * *", agent_id: agent.id })).body;
    expect((await as("PATCH", `/schedules/${schedule.id}`, { agent_id: foreign.id })).status).toBe(404);
    expect((await as("DELETE", `/agents/${agent.id}`)).status).toBe(204);
    expect((await as("GET", `/schedules/${schedule.id}`)).body.agent_id).toBeNull();
  });
});
