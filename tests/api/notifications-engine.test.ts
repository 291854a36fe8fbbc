import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, newTask, reactionsCaughtUp, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// Notifications that need a server of their own (docs/notifications.md): an agent's permission
// question and its run's end, driven over the runner protocol by hand (RUNNER_EMBEDDED=false, so
// no runner of the shared server's takes other tests' jobs), and no notification twice when the
// notify reactions read the log again after a restart (their cursors put back, as after a crash
// between a notification's commit and the cursor's move).

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const CLAIM = { version: "test-1", sandbox: "bubblewrap", free: 1, wait_seconds: 0 };
const ENV = { RUNNER_EMBEDDED: "false" };

beforeAll(async () => {
  store = await newStore("notifications");
  server = await engineServer(store, ENV, "notifications");
  ({ token, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const notifications = async () => {
  const page = await server.call("GET", "/api/me/notifications?limit=100", { token });
  expect(page.status).toBe(200);
  return page.body.items as {
    kind: string;
    title: string;
    question_id: string | null;
    run_id: string | null;
    question: { options: string[] } | null;
  }[];
};

describe("an agent's run", () => {
  it("its permission question and its end reach the person who started it, once each, also after the log is read again", async () => {
    const created = await server.call("POST", "/api/runners", { token, json: { name: "asker" } });
    expect(created.status).toBe(201);
    const runner = (method: string, path: string, json?: unknown) =>
      server.call(method, `/api/runner${path}`, { token: created.body.token, json });
    const task = await newTask(server.call, token, wsId, { title: "permission" });
    const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token });
    expect(started.status).toBe(202);
    const executionId = started.body.id as string;
    expect((await runner("POST", "/claim", CLAIM)).body.job?.execution_id).toBe(executionId);
    const asked = await runner("POST", `/executions/${executionId}/questions`, {
      tool_call: { title: "Write hello.txt", kind: "edit" },
      options: [
        { optionId: "allow", name: "Allow", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    expect(asked.status).toBe(201);
    const questionId = asked.body.question_id as string;
    // The next write waits for the reactions (Prefer: wait=reactions), which have then read the question's event.
    await newTask(server.call, token, wsId, { title: "a write after the question" });
    const question = (await notifications()).find((n) => n.question_id === questionId);
    expect(question).toMatchObject({ kind: "question", question: { options: ["Allow", "Reject"] } });

    const answered = await server.call("POST", `/api/workspaces/${wsId}/questions/${questionId}/answer`, {
      token,
      json: { answer: "Allow" },
    });
    expect(answered.body).toMatchObject({ answered_via: "api" });
    expect((await runner("GET", `/executions/${executionId}/questions/${questionId}?wait_seconds=0`)).body).toEqual({
      status: "answered",
      option_id: "allow",
    });
    expect((await runner("POST", `/executions/${executionId}/finish`, { status: "succeeded", exit_code: 0 })).status).toBe(204);
    // A write would wait only for the reactions that read its own events, and notify-runs reads
    // none of a task's: it could still be short of the run's end (a clean run of 2026-12-07).
    await reactionsCaughtUp(server.call, token, wsId);
    const before = await notifications();
    expect(before.filter((n) => n.run_id === executionId)).toEqual([
      expect.objectContaining({ kind: "run_finished", title: "Run succeeded: permission" }),
    ]);

    // As after a crash before the cursors moved: the notify reactions read the whole log again.
    await server.stop();
    await store.sql(
      `UPDATE reaction_cursors SET cursor = 0, attempts = 0, next_attempt_at = NULL WHERE reaction IN ('notify-people', 'notify-runs')`,
    );
    server = await engineServer(store, ENV, "notifications-again");
    await newTask(server.call, token, wsId, { title: "a write after the restart" });
    // Both have read the whole log again, so a notification made twice would be in the list.
    await reactionsCaughtUp(server.call, token, wsId);
    const after = await notifications();
    expect(after.map((n) => [n.kind, n.title])).toEqual(before.map((n) => [n.kind, n.title]));
    const cursors = await server.call("GET", `/api/workspaces/${wsId}/reactions`, { token });
    expect(
      cursors.body.filter((r: { name: string }) => r.name.startsWith("notify-")).map((r: { last_error: string | null }) => r.last_error),
    ).toEqual([null, null]);
  });
});
