import http from "node:http";
import type { AddressInfo } from "node:net";
import { InfiniteQueryObserver, QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { commentsQuery } from "@/lib/client/comments";
import { openQuestionsQuery } from "@/lib/client/questions";
import { questionKeys, taskKeys } from "@/lib/client/query-keys";
import { taskQuery } from "@/lib/client/tasks";
import type { Question, Task } from "@/lib/client/types";
import { applyEvent } from "@/lib/client/use-workspace-events";

// Reads in a real QueryClient, over HTTP from a local server that answers when the test says, fed by
// events meanwhile: an answer from before an event must not undo it (an agent's question must not
// vanish, a task dialog must not show the task as it was).

const WS = "ws-reads";

function question(id: string): Question {
  return {
    id,
    task_id: "",
    execution_id: null,
    content: `Question ${id}?`,
    options: ["Yes", "No"],
    status: "open",
    answer: null,
    priority: 2,
    created_at: "2026-12-05T00:00:00.000Z",
    answered_at: null,
  } as unknown as Question;
}

/** Reads the server has received and not answered yet, oldest first. */
const held: { url: string; answer: (body: unknown) => void }[] = [];
let server: http.Server;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    held.push({
      url: request.url ?? "",
      answer: (body) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The browser resolves the client's paths against the page; here, against the local server.
  globalThis.fetch = (input, init) => realFetch(`${base}${String(input)}`, init);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await new Promise((resolve) => server.close(resolve));
});

let client: QueryClient;
let unsubscribe: () => void;
beforeEach(() => {
  held.length = 0;
  client = new QueryClient();
});
afterEach(() => unsubscribe());

const list = () => client.getQueryData<Question[]>(questionKeys.list(WS))?.map((q) => q.id);

/** Until the server holds `count` reads (each read is an HTTP request). */
async function reads(count: number) {
  for (let i = 0; i < 200 && held.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(held).toHaveLength(count);
}

async function settled() {
  for (let i = 0; i < 200 && client.isFetching() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(client.isFetching()).toBe(0);
}

describe("an agent's question arriving while the open list is read", () => {
  beforeEach(() => {
    unsubscribe = new QueryObserver(client, openQuestionsQuery(WS)).subscribe(() => {});
  });

  it("stays listed when the page's first read answers without it", async () => {
    await reads(1);
    expect(held[0].url).toBe(`/api/workspaces/${WS}/questions?status=open`);
    applyEvent(client, WS, "question.created", question("q1"));
    held[0].answer([]);
    // That answer may predate the question: the list is read again.
    await reads(2);
    held[1].answer([question("q1")]);
    await settled();
    expect(list()).toEqual(["q1"]);
  });

  it("stays listed when a later read was under way", async () => {
    await reads(1);
    held[0].answer([question("q0")]);
    await settled();
    void client.refetchQueries({ queryKey: questionKeys.list(WS) });
    await reads(2);
    applyEvent(client, WS, "question.created", question("q1"));
    expect(list()).toEqual(["q0", "q1"]);
    held[1].answer([question("q0")]);
    await reads(3);
    held[2].answer([question("q0"), question("q1")]);
    await settled();
    expect(list()).toEqual(["q0", "q1"]);
  });

  it("is added in place, with no read, when none was under way", async () => {
    await reads(1);
    held[0].answer([question("q0")]);
    await settled();
    applyEvent(client, WS, "question.created", question("q1"));
    expect(list()).toEqual(["q0", "q1"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held).toHaveLength(1);
  });
});

describe("a task's change arriving while the task dialog reads it", () => {
  const task = (status: string, title: string) => ({ id: "t1", workspace_id: WS, title, status }) as unknown as Task;
  const shown = () => client.getQueryData<Task>(taskKeys.detail(WS, "t1"));

  beforeEach(() => {
    unsubscribe = new QueryObserver(client, taskQuery(WS, "t1")).subscribe(() => {});
  });

  it("shows the change when the dialog's first read answers from before it", async () => {
    await reads(1);
    expect(held[0].url).toBe(`/api/workspaces/${WS}/tasks/t1`);
    applyEvent(client, WS, "task.moved", task("done", "Ship it"));
    held[0].answer(task("in_progress", "Ship it"));
    await reads(2);
    held[1].answer(task("done", "Ship it"));
    await settled();
    expect(shown()).toMatchObject({ status: "done" });
  });

  it("takes the first answer when nothing happened to the task meanwhile", async () => {
    await reads(1);
    held[0].answer(task("todo", "Quiet"));
    await settled();
    expect(shown()).toMatchObject({ status: "todo", title: "Quiet" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held).toHaveLength(1);
  });
});

describe("an agent's comment arriving while the task dialog's first read of the comments is under way", () => {
  const page = (bodies: string[]) => ({ items: bodies.map((body, i) => ({ id: `c${i}`, body })), next_before: null });
  const bodies = () =>
    client
      .getQueryData<{ pages: { items: { body: string }[] }[] }>(taskKeys.comments(WS, "t1"))
      ?.pages.flatMap((p) => p.items.map((c) => c.body));

  beforeEach(() => {
    unsubscribe = new InfiniteQueryObserver(client, commentsQuery(WS, "t1")).subscribe(() => {});
  });

  it("is shown: the read that answered from before it is made again", async () => {
    await reads(1);
    expect(held[0].url).toBe(`/api/workspaces/${WS}/tasks/t1/comments?limit=20`);
    applyEvent(client, WS, "comment.created", { task_id: "t1" });
    held[0].answer(page(["Looking"]));
    await reads(2);
    held[1].answer(page(["Looking", "Done: see the diff"]));
    await settled();
    expect(bodies()).toEqual(["Looking", "Done: see the diff"]);
  });
});
