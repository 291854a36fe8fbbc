import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questionResponse } from "@/lib/questions/schemas";
import { execution, executionEvent, executionLog, runHistoryItem } from "@/lib/runs/schemas";
import { scheduleDetailResponse, scheduleResponse, triggerResponse } from "@/lib/schedules/schemas";
import { paginatedTasksResponse, taskResponse, taskRunResponse } from "@/lib/tasks/schemas";
import { boardResponse, paginatedCardsResponse } from "@/lib/tasks/card-schemas";
import { activityResponse } from "@/lib/activity/schemas";
import { commentPage, commentResponse, deletedCommentEvent } from "@/lib/comments/schemas";
import { runnerEventData } from "@/lib/dispatch/schemas";
import { dependenciesResponse, dependencyEventData } from "@/lib/dependencies/schemas";
import {
  createdWebhookResponse,
  deliveriesResponse as webhookDeliveriesResponse,
  deliveryResponse as webhookDeliveryResponse,
  webhookResponse,
} from "@/lib/webhooks/schemas";
import { baseUrl, call, newUser, newWorkspace, uniqueName } from "../helpers/api";

// Every response and live event is parsed with the strict form of its one zod schema: a field
// missing, extra or of another type fails here, whether the record was written by a serializer in
// TypeScript or as JSON by SQL (load-tasks.ts; the task_board_extras triggers for a task's runs and
// questions). Rows are made through the API, so this runs on PGlite and PostgreSQL alike.

/** The schema with every object strict, all the way down (z.strictObject: unknown keys fail). */
function strict(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject)
    return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([key, value]) => [key, strict(value as z.ZodType)])));
  if (schema instanceof z.ZodArray) return z.array(strict(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return strict(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return strict(schema.unwrap() as z.ZodType).optional();
  // A default would fill in a field the server forgot, so response schemas have none.
  if (schema instanceof z.ZodDefault) throw new Error("a response schema has a default");
  return schema;
}

function expectShape(schema: z.ZodType, value: unknown, what: string) {
  const result = strict(schema).safeParse(value);
  expect(result.success ? [] : result.error.issues, `${what}: ${JSON.stringify(value).slice(0, 400)}`).toEqual([]);
}

const EVENT_DATA: Record<string, z.ZodType> = {
  "task.created": taskResponse,
  "task.updated": taskResponse,
  "task.moved": taskResponse,
  "task.deleted": z.object({ id: z.string() }),
  "task.dependency_added": dependencyEventData,
  "task.dependency_removed": dependencyEventData,
  "question.created": questionResponse,
  "question.answered": questionResponse,
  "question.deleted": z.object({ id: z.string(), task_id: z.string() }),
  "comment.created": commentResponse,
  "comment.updated": commentResponse,
  "comment.deleted": deletedCommentEvent,
  "run.updated": taskRunResponse,
  "execution.updated": executionEvent,
  "execution.log": executionEvent,
  "runner.updated": runnerEventData,
};

interface Received {
  type: string;
  data: unknown;
}

let token: string;
let ws: string;
const events: Received[] = [];
const stream = new AbortController();

beforeAll(async () => {
  // An administrator: the runner.updated case adds an agent profile and a runner.
  token = (await newUser({ isAdmin: true })).token;
  ws = (await newWorkspace(token)).id;
  const response = await fetch(`${baseUrl()}/api/workspaces/${ws}/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: stream.signal,
  });
  expect(response.status).toBe(200);
  void readEvents(response.body!);
});

afterAll(() => stream.abort());

const base = () => `/api/workspaces/${ws}`;

async function ok<T = any>(method: string, path: string, json?: unknown, status = 200): Promise<T> {
  const response = await call(method, path, { token, json });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body as T;
}

async function untilFinished(executionId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = await ok("GET", `${base()}/executions/${executionId}`);
    if (body.finished_at) return body;
    if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("every response and event matches its schema exactly", () => {
  it("tasks, board, runs, questions, executions, schedules and live events", async () => {
    const project = await ok("POST", `${base()}/projects`, { name: uniqueName("p"), phases: ["design", "build"] }, 201);
    const task = await ok("POST", `${base()}/tasks`, { title: "contract", status: "todo", project_id: project.id, phase: 2 }, 201);
    const open = await ok("POST", `${base()}/questions`, { task_id: task.id, content: "Which?", options: ["a", "b"] }, 201);
    const other = await ok("POST", `${base()}/questions`, { task_id: task.id, content: "And?", context: "ctx" }, 201);
    await ok("POST", `${base()}/questions/${other.id}/answer`, { answer: "yes" });
    const third = await ok("POST", `${base()}/questions`, { task_id: task.id, content: "Gone?" }, 201);
    await ok("DELETE", `${base()}/questions/${third.id}`, undefined, 204);

    const started = await ok("POST", `${base()}/tasks/${task.id}/runs`, {}, 202);
    expectShape(execution, started, "POST runs");
    expectShape(execution, await untilFinished(started.id), "GET execution");
    expectShape(executionLog, await ok("GET", `${base()}/executions/${started.id}/log`), "GET log");

    const schedule = await ok("POST", `${base()}/schedules`, { name: uniqueName("s"), cron: "0 3 * * *", default_instructions: "go" }, 201);
    expectShape(scheduleResponse, schedule, "POST schedules");
    const triggered = await ok("POST", `${base()}/schedules/${schedule.id}/trigger`, undefined, 202);
    expectShape(triggerResponse, triggered, "trigger");
    await untilFinished(triggered.execution_id);
    expectShape(scheduleDetailResponse, await ok("GET", `${base()}/schedules/${schedule.id}`), "GET schedule");
    expectShape(z.array(scheduleResponse), await ok("GET", `${base()}/schedules`), "GET schedules");

    await ok("PATCH", `${base()}/tasks/${task.id}`, { title: "contract renamed" });
    await ok("POST", `${base()}/tasks/${task.id}/move`, { column: "in_progress" });
    const blocker = await ok("POST", `${base()}/tasks`, { title: "blocker" }, 201);
    expectShape(taskResponse, await ok("POST", `${base()}/tasks/${task.id}/dependencies/${blocker.id}`), "POST dependency");
    expectShape(dependenciesResponse, await ok("GET", `${base()}/tasks/${task.id}/dependencies`), "GET dependencies");
    expectShape(taskResponse, await ok("DELETE", `${base()}/tasks/${task.id}/dependencies/${blocker.id}`), "DELETE dependency");
    expectShape(activityResponse, await ok("GET", `${base()}/tasks/${task.id}/activity?limit=100`), "GET activity");
    const comment = await ok("POST", `${base()}/tasks/${task.id}/comments`, { body: "A **comment**" }, 201);
    expectShape(commentResponse, comment, "POST comment");
    expectShape(
      commentResponse,
      await ok("PATCH", `${base()}/tasks/${task.id}/comments/${comment.id}`, { body: "edited" }),
      "PATCH comment",
    );
    expectShape(commentPage, await ok("GET", `${base()}/tasks/${task.id}/comments`), "GET comments");
    await ok("DELETE", `${base()}/tasks/${task.id}/comments/${comment.id}`, undefined, 204);
    const doomed = await ok("POST", `${base()}/tasks`, { title: "doomed" }, 201);
    await ok("DELETE", `${base()}/tasks/${doomed.id}`, undefined, 204);

    // The task as SQL writes it, with its open question and its run from the triggers' JSON.
    const single = await ok("GET", `${base()}/tasks/${task.id}`);
    expect(single.questions.map((q: { id: string }) => q.id)).toEqual([open.id]);
    expect(single.task_runs).toHaveLength(1);
    expect(single.phase_name).toBe("build");
    expectShape(taskResponse, single, "GET task");
    expectShape(paginatedTasksResponse, await ok("GET", `${base()}/board/column/in_progress`), "column page");
    expectShape(paginatedCardsResponse, await ok("GET", `${base()}/board/column/in_progress?view=compact`), "compact column page");
    expectShape(boardResponse, await ok("GET", `${base()}/board`), "board");
    expectShape(z.array(runHistoryItem), await ok("GET", `${base()}/tasks/${task.id}/runs`), "GET runs");
    expectShape(z.array(questionResponse), await ok("GET", `${base()}/questions`), "GET questions");

    // A runner coming online while a run waits (for labels no runner has): runner.updated.
    const picky = await ok(
      "POST",
      `${base()}/agents`,
      { name: uniqueName("a"), kind: "command", command: "/bin/true", labels: ["contracts-only"] },
      201,
    );
    const waiting = await ok("POST", `${base()}/tasks/${blocker.id}/runs`, { agent_id: picky.id }, 202);
    const runner = await call("POST", "/api/runners", { token, json: { name: uniqueName("contracts") } });
    expect(runner.status).toBe(201);
    expect((await call("POST", "/api/runner/heartbeat", { token: runner.body.token, json: { executions: [] } })).status).toBe(200);
    await ok("POST", `${base()}/executions/${waiting.id}/cancel`);
    expect((await call("DELETE", `/api/runners/${runner.body.id}`, { token })).status).toBe(204);

    // Live events: every type seen, each payload the record it names.
    const deadline = Date.now() + 10_000;
    while (!Object.keys(EVENT_DATA).every((type) => events.some((e) => e.type === type)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Object.keys(EVENT_DATA).filter((type) => !events.some((e) => e.type === type))).toEqual([]);
    for (const event of events) {
      const schema = EVENT_DATA[event.type];
      if (schema) expectShape(schema, event.data, `event ${event.type}`);
    }
  });

  it("webhooks and their deliveries", async () => {
    // Loopback is refused by the SSRF guard on this server: the attempt is recorded with its error.
    const created = await ok("POST", `${base()}/webhooks`, { url: "http://127.0.0.1:9/hook", events: ["task.created"] }, 201);
    expectShape(createdWebhookResponse, created, "POST webhooks");
    expectShape(z.array(webhookResponse), await ok("GET", `${base()}/webhooks`), "GET webhooks");
    const changed = await ok("PATCH", `${base()}/webhooks/${created.id}`, { description: "contract" });
    expectShape(webhookResponse, changed, "PATCH webhook");
    await ok("POST", `${base()}/tasks`, { title: "for the webhook", status: "todo" }, 201);
    const deadline = Date.now() + 60_000;
    let page = await ok("GET", `${base()}/webhooks/${created.id}/deliveries`);
    while (!(page.items[0]?.attempts >= 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await ok("GET", `${base()}/webhooks/${created.id}/deliveries`);
    }
    expect(page.items[0].error).toMatch(/^Refused/);
    expectShape(webhookDeliveriesResponse, page, "GET deliveries");
    const again = await ok("POST", `${base()}/webhooks/${created.id}/deliveries/${page.items[0].id}/redeliver`, undefined, 202);
    expectShape(webhookDeliveryResponse, again, "POST redeliver");
  });
});

/** Collects the stream's events. An event's `data` may be the record itself or an envelope `{type, data, …}` around it. */
async function readEvents(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        if (!type || !data) continue;
        const parsed = JSON.parse(data);
        const envelope = z.looseObject({ type: z.literal(type), data: z.unknown() }).safeParse(parsed);
        events.push({ type, data: envelope.success ? envelope.data.data : parsed });
      }
    }
  } catch {
    // aborted at the end of the test
  }
}
