import http from "node:http";
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, newUser, newWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// Requests that used to answer 500, or a 4xx outside the documented `{"detail": …}` format, and
// the response headers every page, API route and /docs carries.

let token: string;
let wsId: string;

beforeAll(async () => {
  token = (await newUser()).token;
  wsId = (await newWorkspace(token)).id;
});

const ws = (path = "") => `/api/workspaces/${wsId}${path}`;

describe("NUL characters", () => {
  it("in a path segment: 404, for ids that cannot exist", async () => {
    for (const path of ["/api/workspaces/%00/board", ws("/tasks/%00"), ws("/projects/a%00b"), ws("/schedules/%00/trigger")]) {
      const response = await call(path.endsWith("trigger") ? "POST" : "GET", path, { token });
      expect(response.status, path).toBe(404);
      expect(response.body, path).toEqual({ detail: "Not Found" });
    }
  });

  it("in a body or query string, or a body key: 422 naming the field", async () => {
    const body = await call("POST", ws("/tasks"), { token, json: { title: "a\u0000b", tags: ["ok", "n\u0000"] } });
    expect(body.status).toBe(422);
    expect(body.body.detail.map((entry: { loc: unknown }) => entry.loc)).toEqual([
      ["body", "title"],
      ["body", "tags", 1],
    ]);
    expect(body.body.detail[0]).toMatchObject({ type: "string_nul", input: "a\u0000b" });

    const query = await call("GET", ws("/questions?task_id=%00"), { token });
    expect(query.status).toBe(422);
    expect(query.body.detail[0]).toMatchObject({ type: "string_nul", loc: ["query", "task_id"] });

    const key = await call("POST", "/api/workspaces", { token, json: { name: "w", "\u0000": 1 } });
    expect(key.status).toBe(422);
    expect(key.body.detail[0].loc).toEqual(["body", "\u0000"]);
  });
});

describe("NUL characters at next-auth's sign-in form", () => {
  it("are a wrong username, not a database error passed on to the browser", async () => {
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const { csrfToken } = await csrf.json();
    const response = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ad\u0000min", password: "whatever", json: "true" }),
    });
    expect(response.status).toBeLessThan(500);
    const answer = decodeURIComponent(`${response.headers.get("location") ?? ""} ${await response.text()}`);
    expect(answer).not.toMatch(/prisma|database|0x00/i);
    expect(answer).toMatch(/Incorrect username or password/);
  });
});

describe("numbers beyond the database's integer columns", () => {
  it("are 422 with the bound, which /openapi.json documents", async () => {
    const task = await call("POST", ws("/tasks"), { token, json: { title: "t", phase: 3_000_000_000 } });
    expect(task.status).toBe(422);
    expect(task.body.detail[0]).toMatchObject({ type: "less_than_equal", loc: ["body", "phase"], ctx: { le: 2147483647 } });

    const codehost = await call("PUT", ws("/codehost"), { token, json: { installation_id: 3_000_000_000, repo: "acme/app" } });
    expect(codehost.status).toBe(422);
    expect(codehost.body.detail[0]).toMatchObject({ type: "less_than_equal", loc: ["body", "installation_id"] });

    const log = await call("GET", ws("/executions/0196b0a1-0000-7000-8000-000000000000/log?offset=3000000000"), { token });
    expect(log.status).toBe(422);
    expect(log.body.detail[0]).toMatchObject({ type: "less_than_equal", loc: ["query", "offset"] });

    const column = await call("GET", ws("/board/column/todo?offset=3000000000"), { token });
    expect(column.status).toBe(422);

    const paths = (await call("GET", "/openapi.json")).body.paths;
    const body = (path: string, method: string) => paths[path][method].requestBody.content["application/json"].schema.properties;
    const query = (path: string, name: string) => paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(body("/api/workspaces/{id}/tasks", "post").phase.anyOf[0].maximum).toBe(2147483647);
    expect(body("/api/workspaces/{id}/codehost", "put").installation_id.maximum).toBe(2147483647);
    expect(body("/api/workspaces/{id}/tasks/{task_id}", "patch").position).toMatchObject({ minimum: -1e9, maximum: 1e9 });
    expect(query("/api/workspaces/{id}/executions/{execution_id}/log", "offset").maximum).toBe(2147483647);
  });
});

describe("JSON nested 5,000 levels deep", () => {
  const deep = "[".repeat(5000) + "]".repeat(5000);

  it("is a 422 json_invalid on login and on a workspace route", async () => {
    for (const [path, auth] of [
      ["/api/auth/login", undefined],
      [ws("/tasks"), token],
    ] as const) {
      const response = await call("POST", path, {
        token: auth,
        body: `{"title": ${deep}}`,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, path).toBe(422);
      expect(response.body.detail[0], path).toMatchObject({ type: "json_invalid", loc: ["body", 41] });
    }
    // Brackets inside strings are text, not nesting.
    const inString = await call("POST", ws("/tasks"), {
      token,
      json: { title: "[".repeat(200), description: `\\"${"{".repeat(5000)}\\`, tags: ['"]]]', "\\"] },
    });
    expect(inString.status).toBe(201);
  });
});

describe("paths and methods Next cannot route", () => {
  it("malformed percent-encoding is a 404, in JSON under /api", async () => {
    const api = await call("GET", "/api/workspaces/%ff", { token });
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ detail: "Not Found" });
    const page = await call("GET", "/w/%ff/settings");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("TRACE is a 405 with Allow on any path", async () => {
    // fetch refuses to send TRACE at all, so this goes through node:http.
    for (const path of ["/api/health", ws("/board"), "/", "/docs"]) {
      const response = await rawRequest("TRACE", path);
      expect(response.status, path).toBe(405);
      expect(JSON.parse(response.body)).toEqual({ detail: "Method Not Allowed" });
      expect(response.headers.allow, path).toMatch(/GET/);
    }
    expect((await rawRequest("TRACE", ws("/board"))).headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("what Node's parser refuses (an unknown method, oversized headers) still gets a detail body", async () => {
    const unknown = await rawSocket("FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(unknown).toMatch(/^HTTP\/1\.1 400 /);
    expect(unknown.endsWith('{"detail":"Bad Request"}')).toBe(true);
    const huge = await rawSocket(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge.endsWith('{"detail":"Request Header Fields Too Large"}')).toBe(true);
  });

  it("an undocumented method under /api is a 405 with Allow and a detail", async () => {
    const health = await call("PUT", "/api/health");
    expect(health.status).toBe(405);
    expect(health.body).toEqual({ detail: "Method Not Allowed" });
    expect(health.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(health.headers.get("x-request-id")).toBeTruthy();
    // Answered before Next (lib/api/http-guard.ts), with the headers Next gives its own answers.
    expect(health.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    const board = await call("DELETE", ws("/board"), { token });
    expect(board.status).toBe(405);
    const task = await call("PUT", ws("/tasks/some-id"), { token });
    expect(task.status).toBe(405);
    expect(task.headers.get("allow")).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
    expect(task.body).toEqual({ detail: "Method Not Allowed" });
  });

  it("unknown API paths, next-auth's included, answer 404 or 400 with a detail", async () => {
    for (const [method, path] of [
      ["GET", "/api/nope"],
      ["PATCH", "/api/nope/deeper"],
      ["GET", "/api"],
      ["GET", "/api/auth/nope"],
      ["POST", "/api/auth/nope"],
    ]) {
      const response = await call(method, path);
      expect([400, 404], `${method} ${path}`).toContain(response.status);
      expect(typeof response.body?.detail, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe("string");
    }
    expect((await call("PUT", "/api/auth/session")).status).toBe(405);
    // next-auth's own endpoints still work.
    expect((await call("GET", "/api/auth/csrf")).body).toHaveProperty("csrfToken");
  });

  it("/docs serves only Swagger UI's files", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const response = await call("GET", `/docs/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.body).toEqual({ detail: "Not Found" });
    }
    expect((await call("GET", "/docs/swagger-ui.css")).status).toBe(200);
  });
});

describe("task fields", () => {
  it("pr_url must be an http(s) URL", async () => {
    for (const pr_url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://example.com/x", "not a url"]) {
      const response = await call("POST", ws("/tasks"), { token, json: { title: "t", pr_url } });
      expect(response.status, pr_url).toBe(422);
      expect(response.body.detail[0]).toMatchObject({ type: "url_parsing", loc: ["body", "pr_url"] });
    }
    const task = await createTask(token, wsId, { pr_url: "http://example.com/pull/1" });
    const patched = await call("PATCH", ws(`/tasks/${task.id}`), { token, json: { pr_url: "javascript:alert(1)" } });
    expect(patched.status).toBe(422);
  });

  it("a position far out of range is 422, and the column keeps taking new tasks", async () => {
    const task = await createTask(token, wsId, { status: "in_review" });
    for (const position of [1e300, -1e300, 1e9 + 1]) {
      const response = await call("PATCH", ws(`/tasks/${task.id}`), { token, json: { position } });
      expect(response.status, String(position)).toBe(422);
      expect(response.body.detail[0].loc).toEqual(["body", "position"]);
    }
    expect((await call("PATCH", ws(`/tasks/${task.id}`), { token, json: { position: 1e9 } })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const created = await call("POST", ws("/tasks"), { token, json: { title: `after ${i}`, status: "in_review" } });
      expect(created.status).toBe(201);
      expect(created.body.position).toBe(1e9 + 1 + i);
    }
  });
});

describe("compression", () => {
  it("gzips a large answer for a client that accepts it, and sends a small one as it is", async () => {
    for (let i = 0; i < 3; i++) await createTask(token, wsId, { title: `compressed ${i}`, status: "backlog" });
    const headers = { authorization: `Bearer ${token}`, "accept-encoding": "gzip" };
    const board = await fetch(baseUrl() + ws("/board"), { headers });
    expect(board.headers.get("content-encoding")).toBe("gzip");
    const backlog = (await board.json()).columns.find((column: { key: string }) => column.key === "backlog");
    expect(backlog.items.length).toBeGreaterThanOrEqual(3);
    const health = await fetch(`${baseUrl()}/api/health`, { headers });
    expect(health.headers.get("content-encoding")).toBeNull();
    expect(await health.json()).toMatchObject({ status: "ok" });
  });
});

describe("security headers", () => {
  it("every page, API route, error and /docs sends CSP with frame-ancestors 'none', nosniff and a Referrer-Policy", async () => {
    for (const path of ["/login", "/api/health", "/docs", "/docs/swagger-ui-bundle.js", "/openapi.json", "/api/nope", ws("/board")]) {
      const response = await fetch(baseUrl() + path, { redirect: "manual" });
      await response.body?.cancel();
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
  });
});

function rawRequest(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(baseUrl() + path, { method }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** Sends `text` as it is and returns everything the server answers before it closes. */
function rawSocket(text: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", (error) => (answer ? resolve(answer) : reject(error)));
  });
}
