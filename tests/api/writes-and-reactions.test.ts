import { describe, expect, it } from "vitest";
import { baseUrl, call, newWorkspace, userWithWorkspace } from "../helpers/api";
import { eventually } from "../helpers/engine";
import { openStream } from "../helpers/sse";
import { createTask } from "../helpers/tasks";

// A write answers once its own transaction has committed; the reactions to it (here start-unblocked:
// a blocker moved to Done starts its dependant's run) follow in the background, and the event
// stream brings their effects. `Prefer: wait=reactions` (RFC 7240) has the answer wait for them
// (docs/api.md, "Writes and reactions"). The helpers' client sends that header unless told not to.

const made = userWithWorkspace();

/** A workspace that starts unblocked tasks, a dependant in todo and its blocker in progress. */
async function blockedPair() {
  const ws = (await newWorkspace(made.token)).id;
  expect((await call("PATCH", `/api/workspaces/${ws}`, { token: made.token, json: { auto_start_unblocked: true } })).status).toBe(200);
  const dependant = await createTask(made.token, ws, { title: "dependant", status: "todo" });
  const blocker = await createTask(made.token, ws, { title: "blocker", status: "in_progress" });
  const added = await call("POST", `/api/workspaces/${ws}/tasks/${dependant.id}/dependencies/${blocker.id}`, { token: made.token });
  expect(added.status).toBe(200);
  return { ws, dependant: dependant.id as string, blocker: blocker.id as string };
}

const runsOf = async (ws: string, taskId: string) =>
  (await call("GET", `/api/workspaces/${ws}/tasks/${taskId}/runs`, { token: made.token })).body as { trigger: string }[];

describe("Prefer: wait=reactions", () => {
  it("answers a move to Done once the dependant's run has started, and says the preference was applied", async () => {
    const { ws, dependant, blocker } = await blockedPair();
    const moved = await call("POST", `/api/workspaces/${ws}/tasks/${blocker}/move`, {
      token: made.token,
      json: { column: "done" },
      headers: { prefer: "wait=reactions" },
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("preference-applied")).toBe("wait=reactions");
    // The very next request sees the reaction's effect: no polling.
    const runs = await runsOf(ws, dependant);
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe("manual");
  });

  it("is applied among other preferences, in any case, and on a PATCH too", async () => {
    const { ws, dependant, blocker } = await blockedPair();
    const patched = await call("PATCH", `/api/workspaces/${ws}/tasks/${blocker}`, {
      token: made.token,
      json: { status: "done" },
      headers: { prefer: 'return=representation, WAIT = "reactions"; strict' },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("preference-applied")).toBe("wait=reactions");
    expect(await runsOf(ws, dependant)).toHaveLength(1);
  });

  it("is not applied to a write that failed", async () => {
    const missing = await call("PATCH", `/api/workspaces/${made.ws}/tasks/no-such-task`, {
      token: made.token,
      json: { title: "x" },
      headers: { prefer: "wait=reactions" },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("preference-applied")).toBeNull();
  });
});

describe("without the preference", () => {
  it("answers at commit, and the reaction's effect follows: on the event stream and in a read", async () => {
    const { ws, dependant, blocker } = await blockedPair();
    const board = await call("GET", `/api/workspaces/${ws}/board`, { token: made.token });
    const stream = await openStream(`${baseUrl()}/api/workspaces/${ws}/events?after=${board.body.cursor}`, {
      authorization: `Bearer ${made.token}`,
    });
    try {
      const moved = await call("POST", `/api/workspaces/${ws}/tasks/${blocker}/move`, {
        token: made.token,
        json: { column: "done" },
        waitForReactions: false,
      });
      expect(moved.status).toBe(200);
      expect(moved.headers.get("preference-applied")).toBeNull();
      expect(moved.body).toMatchObject({ id: blocker, status: "done" });
      const started = await stream.until(
        (message) => message.event === "execution.updated" && JSON.parse(message.data!).task_id === dependant,
        15_000,
        "the dependant's run on the event stream",
      );
      expect(JSON.parse(started.at(-1)!.data!).data).toMatchObject({ task_id: dependant, chain_depth: 0 });
      const runs = await eventually(async () => {
        const found = await runsOf(ws, dependant);
        return found.length === 1 ? found : undefined;
      });
      expect(runs[0].trigger).toBe("manual");
    } finally {
      stream.close();
    }
  });

  it("ignores preferences it does not know, and a wait that is not for the reactions: no error, nothing applied", async () => {
    for (const prefer of ["respond-async", "wait=10", "wait=reaction", "handling=strict, return=minimal", 'wait="reactions', ";;=,", ""]) {
      const created = await call("POST", `/api/workspaces/${made.ws}/tasks`, {
        token: made.token,
        json: { title: `prefer ${prefer}`, status: "todo" },
        headers: { prefer },
      });
      expect(created.status, prefer).toBe(201);
      expect(created.headers.get("preference-applied"), prefer).toBeNull();
    }
  });

  it("answers only what has committed: another request reads the same task at once", async () => {
    const task = `/api/workspaces/${made.ws}/tasks`;
    const readBack = async (id: string) => (await call("GET", `${task}/${id}`, { token: made.token, waitForReactions: false })).body;
    const created = await call("POST", task, { token: made.token, json: { title: "committed", status: "todo" }, waitForReactions: false });
    expect(created.status).toBe(201);
    expect(await readBack(created.body.id)).toEqual(created.body);
    const renamed = await call("PATCH", `${task}/${created.body.id}`, {
      token: made.token,
      json: { title: "committed, renamed" },
      waitForReactions: false,
    });
    expect(renamed.body.title).toBe("committed, renamed");
    expect(await readBack(created.body.id)).toEqual(renamed.body);
    const moved = await call("POST", `${task}/${created.body.id}/move`, {
      token: made.token,
      json: { column: "in_review" },
      waitForReactions: false,
    });
    expect(moved.body.status).toBe("in_review");
    expect(await readBack(created.body.id)).toEqual(moved.body);

    // The answer is read inside the write's transaction (its event's data), never after it. A rename:
    // the credential check, BEGIN, the row lock, the update, the event (with the event head's lock), COMMIT.
    expect(renamed.headers.get("x-sql-statements")).toBe("6");
    // A create also locks its column and finds the column's end; a move locks the column and places the task.
    expect(created.headers.get("x-sql-statements")).toBe("7");
    expect(moved.headers.get("x-sql-statements")).toBe("8");
  });
});
