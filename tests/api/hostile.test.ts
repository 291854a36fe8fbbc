import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, newUser, newWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// Walks every operation /openapi.json documents with hostile input: wrong types, NUL characters,
// numbers beyond any column, 100 kB strings, ids that cannot exist, bad tokens, JSON nested
// 5,000 deep. Nothing may answer 5xx, and every 4xx must be the documented `{"detail": …}` body.
// About 800 requests, four at a time (30 to 50 s here).

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  operationId: string;
  params: { name: string; in: "path" | "query"; schema: Json }[];
  body?: Json;
}
interface Probe {
  operation: string;
  method: string;
  url: string;
  body?: string;
  token?: string | null;
  authorization?: string;
}

const LONG = "x".repeat(100_000);
const DEEP = "[".repeat(5000) + "]".repeat(5000);
const DEEP_OBJECT = '{"a":'.repeat(5000) + "1" + "}".repeat(5000);

/** Values every body property gets in turn (the rest of the body staying valid). */
const HOSTILE_VALUES: unknown[] = ["a\u0000b", LONG, 3_000_000_000];

/** And one of these each, a different one per property. */
const MORE_HOSTILE_VALUES: unknown[] = [
  { nested: { deeper: ["\u0000"] } },
  -1e300,
  null,
  true,
  "",
  -1,
  0,
  -3_000_000_000,
  1e300,
  1.5,
  "3000000000",
  "javascript:alert(1)",
  [],
  ["\u0000"],
  [LONG],
  {},
  "💥\u202e<script>",
];

/** Raw JSON bodies that are not an object of the right shape. */
const HOSTILE_BODIES = ["null", "[]", "5", "{", DEEP, DEEP_OBJECT, '{"\u0000":1}'];

/** Path segments (percent-encoded as sent) for ids that cannot exist. */
const HOSTILE_SEGMENTS = ["%00", "%ff", "x".repeat(3000), "'%20OR%201=1--", "%2e%2e", "-1"];

/** Query values (percent-encoded as sent). */
const HOSTILE_QUERY = ["%00", "abc", "-1", "3000000000", "99999999999999999999999", "x".repeat(8000)];

const BAD_AUTHORIZATION = ["Bearer", "Bearer " + "x".repeat(4000), "Basic YWRtaW46YWRtaW4=", "Bearer tba_" + "0".repeat(43), "Bearer \t"];

let operations: Operation[];
let rotation = 0;
let components: Json = {};
let real: Record<string, string>;
let token: string;

beforeAll(async () => {
  const document = (await call("GET", "/openapi.json")).body;
  operations = operationsOf(document);
  components = document.components?.schemas ?? {};
  const caller = await newUser({ isAdmin: true });
  token = caller.token;
  const ws = await newWorkspace(token);
  const task = await createTask(token, ws.id, { title: "target" });
  const project = await call("POST", `/api/workspaces/${ws.id}/projects`, { token, json: { name: "p" } });
  const question = await call("POST", `/api/workspaces/${ws.id}/questions`, { token, json: { content: "q?", task_id: task.id } });
  const target = await newUser();
  real = {
    id: ws.id,
    task_id: task.id,
    project_id: project.body.id,
    question_id: question.body.id,
    user_id: target.id,
    column: "todo",
  };
});

describe("every documented operation with hostile input", () => {
  it("never answers 5xx, and answers every 4xx with a detail body", async () => {
    const probes = operations.flatMap(probesFor);
    expect(probes.length).toBeGreaterThan(500);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await inParallel(probes, 4, async (probe) => {
      const outcome = await send(probe);
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.problem) failures.push(`${probe.method} ${probe.url.slice(0, 160)} ${describeBody(probe.body)} → ${outcome.problem}`);
    });
    console.log(`hostile walk: ${probes.length} requests`, Object.fromEntries([...statuses].sort()));
    expect(failures).toEqual([]);
    // The walk reached the handlers, not only the authentication in front of them.
    expect(statuses.get(422)).toBeGreaterThan(100);
    expect(statuses.get(404)).toBeGreaterThan(50);
    expect(statuses.get(401)).toBeGreaterThan(50);
  }, 300_000);
});

/** The probes of one operation: bad credentials, hostile path ids, query values and bodies. */
function probesFor(op: Operation): Probe[] {
  // Logging out with the walk's own token would end the walk's session.
  const ownToken = op.operationId === "logout" ? null : token;
  const probe = (url: string, body?: string, extra: Partial<Probe> = {}): Probe => ({
    operation: op.operationId,
    method: op.method.toUpperCase(),
    url,
    body,
    token: ownToken,
    ...extra,
  });
  const valid = op.body ? JSON.stringify(validValue(op.body)) : undefined;
  const out: Probe[] = [];

  // No token, and one malformed or unknown credential (a different one per operation).
  const authorization = BAD_AUTHORIZATION[operations.indexOf(op) % BAD_AUTHORIZATION.length];
  out.push(probe(urlOf(op), valid, { token: null, authorization }));
  out.push(probe(urlOf(op), valid, { token: null }));

  for (const param of op.params.filter((p) => p.in === "path")) {
    const other = HOSTILE_SEGMENTS[1 + (rotation++ % (HOSTILE_SEGMENTS.length - 1))];
    for (const segment of [HOSTILE_SEGMENTS[0], other]) out.push(probe(urlOf(op, { [param.name]: segment }), valid));
  }
  for (const param of op.params.filter((p) => p.in === "query")) {
    for (const value of HOSTILE_QUERY) out.push(probe(urlOf(op, {}, `${param.name}=${value}`), valid));
    out.push(probe(urlOf(op, {}, `${param.name}=1&${param.name}=2`), valid));
  }
  if (!op.body) return out;

  for (const raw of HOSTILE_BODIES) out.push(probe(urlOf(op), raw));
  const base = validValue(op.body) as Json;
  const properties = Object.keys(resolve(op.body).properties ?? {});
  // Each property in turn gets every hostile value, the rest of the body staying valid.
  for (const [i, name] of properties.entries()) {
    const more = MORE_HOSTILE_VALUES[rotation++ % MORE_HOSTILE_VALUES.length];
    for (const value of [...HOSTILE_VALUES, more]) out.push(probe(urlOf(op), JSON.stringify({ ...base, [name]: value })));
    if (i === 0) out.push(probe(urlOf(op), JSON.stringify({ ...base, [name]: "__deep__" }).replace('"__deep__"', DEEP)));
  }
  return out;
}

async function send(probe: Probe): Promise<{ status: number; problem?: string }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (probe.token) headers.authorization = `Bearer ${probe.token}`;
  if (probe.authorization) headers.authorization = probe.authorization;
  let response: Response;
  try {
    response = await fetch(baseUrl() + probe.url, {
      method: probe.method,
      headers,
      body: probe.body,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return { status: 0, problem: `no response: ${(error as Error).message}` };
  }
  const type = response.headers.get("content-type") ?? "";
  // The event stream never ends by itself: its status is enough.
  if (type.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const text = await response.text();
  if (response.status >= 500) return { status: response.status, problem: `${response.status} ${text.slice(0, 200)}` };
  if (response.status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (detail === undefined)
      return { status: response.status, problem: `${response.status} without a detail body: ${text.slice(0, 200)}` };
  }
  return { status: response.status };
}

function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Json)) {
    for (const [method, spec] of Object.entries(methods as Json)) {
      const body = spec.requestBody?.content?.["application/json"]?.schema;
      out.push({ method, path, operationId: spec.operationId, params: spec.parameters ?? [], body });
    }
  }
  // Deletes last, so the walk's own workspace, task and project stay until then.
  return out.sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"));
}

function urlOf(op: Operation, segments: Record<string, string> = {}, query = ""): string {
  const path = op.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => segments[name] ?? encodeURIComponent(real[name] ?? "0196b0a1-0000-7000-8000-000000000000"),
  );
  return query ? `${path}?${query}` : path;
}

/** The smallest value the schema accepts (so only the value under test is hostile). */
function validValue(schema: Json): unknown {
  const s = resolve(schema);
  if ("default" in s) return s.default;
  if (s.anyOf) return validValue(s.anyOf.find((option: Json) => option.type !== "null") ?? s.anyOf[0]);
  if (s.enum) return s.enum[0];
  switch (s.type) {
    case "object": {
      const out: Json = {};
      for (const name of s.required ?? []) out[name] = validValue(s.properties[name]);
      return out;
    }
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items ?? {}));
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return false;
    case "string":
      if (s.format === "uri") return "https://example.com/pr/1";
      if (s.pattern) return "ab-c";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
    default:
      return null;
  }
}

function resolve(schema: Json): Json {
  if (typeof schema?.$ref === "string") return components[schema.$ref.split("/").pop()!] ?? {};
  return schema ?? {};
}

function describeBody(body: string | undefined) {
  if (body === undefined) return "";
  return body.length > 120 ? `${body.slice(0, 100)}…(${body.length} chars)` : body;
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
