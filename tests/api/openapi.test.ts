import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";

type Json = Record<string, any>;

const SPEC_OPERATIONS = [
  ["post", "/api/auth/login"],
  ["delete", "/api/auth/api-keys/{key_id}"],
  ["get", "/api/workspaces/{id}/board/column/{column}"],
  ["post", "/api/workspaces/{id}/questions"],
  ["get", "/api/workspaces/{id}/questions"],
  ["delete", "/api/workspaces/{id}/questions/{question_id}"],
  ["post", "/api/workspaces/{id}/projects"],
  ["get", "/api/workspaces/{id}/projects"],
  ["post", "/api/workspaces/{id}/tasks/{task_id}/fix-conflicts"],
  ["get", "/api/workspaces/{id}/codehost/status"],
  ["get", "/api/workspaces/{id}/schedules/{ref}/default-instructions"],
  ["post", "/api/workspaces/{id}/schedules/{ref}/trigger"],
] as const;
const METHODS = ["get", "post", "put", "patch", "delete"];

let doc: Json;

beforeAll(async () => {
  const res = await call("GET", "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, path: p, op: item[m] as Json })),
  );
const op = (method: string, p: string) => doc.paths[p]?.[method] as Json;
const resolve = (schema: Json): Json => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema);
const bodySchema = (method: string, p: string) => resolve(op(method, p).requestBody.content["application/json"].schema);

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1.0, interface version 0.1.0, with a bearer security scheme used by default", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(op("post", "/api/auth/login").security).toEqual([]);
  });

  it("has all twelve spec operations, under the spec's path templates", () => {
    const missing = SPEC_OPERATIONS.filter(([m, p]) => !op(m, p)).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect(missing, `missing operations: ${missing.join(", ")}`).toEqual([]);
  });

  it("declares every path parameter of every template, and unique operation ids", () => {
    const ids = new Set<string>();
    for (const { method, path: p, op: o } of operations()) {
      const inTemplate = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (o.parameters ?? [])
        .filter((x: Json) => x.in === "path")
        .map((x: Json) => x.name)
        .sort();
      expect(declared, `${method} ${p}`).toEqual(inTemplate);
      for (const param of o.parameters ?? []) if (param.in === "path") expect(param.required).toBe(true);
      expect(ids.has(o.operationId), `duplicate operationId ${o.operationId}`).toBe(false);
      ids.add(o.operationId);
    }
  });

  it("describes request bodies with their defaults and limits", () => {
    const project = bodySchema("post", "/api/workspaces/{id}/projects");
    expect(project.required).toEqual(["name"]);
    expect(project.properties.name).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(project.properties.description.default).toBe("");
    expect(project.properties.status).toMatchObject({ default: "active", enum: ["active", "paused", "completed", "archived"] });
    expect(project.properties.priority).toMatchObject({ default: "p3", enum: ["p0", "p1", "p2", "p3", "p4"] });
    expect(project.properties.tags).toMatchObject({ default: [], type: "array", items: { type: "string" } });

    const question = bodySchema("post", "/api/workspaces/{id}/questions");
    expect(question.required.sort()).toEqual(["content", "task_id"]);
    expect(question.properties.priority).toMatchObject({ type: "integer", default: 2, minimum: 0, maximum: 4 });
    expect(question.properties.context.default).toBeNull();
    const options = question.properties.options;
    expect(options.default).toBeNull();
    expect(options.anyOf.find((s: Json) => s.type === "array")).toMatchObject({ maxItems: 4, items: { type: "string" } });

    const login = bodySchema("post", "/api/auth/login");
    expect(login.required.sort()).toEqual(["password", "username"]);
    expect(login.properties).toMatchObject({ username: { type: "string" }, password: { type: "string" } });

    const schedule = bodySchema("post", "/api/workspaces/{id}/schedules");
    expect(schedule.required.sort()).toEqual(["cron", "name"]);
    expect(schedule.properties).toMatchObject({
      timezone: { default: "UTC" },
      enabled: { default: true },
      default_instructions: { default: "" },
    });

    const listQuestions = op("get", "/api/workspaces/{id}/questions").parameters.find((p: Json) => p.name === "limit");
    expect(listQuestions).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", default: 100, minimum: 1, maximum: 500 },
    });
  });

  it("describes success responses with the response schemas", () => {
    const question = resolve(op("post", "/api/workspaces/{id}/questions").responses["201"].content["application/json"].schema);
    expect(Object.keys(question.properties).sort()).toEqual([
      "answer",
      "answered_at",
      "answered_by",
      "answered_via",
      "content",
      "context",
      "created_at",
      "execution_id",
      "id",
      "options",
      "priority",
      "status",
      "task_id",
      "task_title",
      "workspace_id",
    ]);
    expect(question.required).toHaveLength(15);
    const projects = op("get", "/api/workspaces/{id}/projects").responses["200"].content["application/json"].schema;
    expect(projects.type).toBe("array");
    expect(Object.keys(resolve(projects.items).properties)).toEqual(
      expect.arrayContaining([
        "id",
        "workspace_id",
        "name",
        "description",
        "status",
        "priority",
        "tags",
        "phases",
        "created_at",
        "updated_at",
      ]),
    );
    const status = resolve(op("get", "/api/workspaces/{id}/codehost/status").responses["200"].content["application/json"].schema);
    // The interface's four fields and oauth_configured, always present; `reason` only while GitHub took the connection away.
    expect(Object.keys(status.properties).sort()).toEqual([
      "app_configured",
      "connected",
      "installation_id",
      "oauth_configured",
      "reason",
      "repo",
    ]);
    expect([...status.required].sort()).toEqual(["app_configured", "connected", "installation_id", "oauth_configured", "repo"]);
    expect(
      resolve(op("get", "/api/workspaces/{id}/schedules/{ref}/default-instructions").responses["200"].content["application/json"].schema),
    ).toMatchObject({ properties: { instructions: { type: "string" } }, required: ["instructions"] });
    expect(Object.keys(op("post", "/api/workspaces/{id}/schedules/{ref}/trigger").responses)).toContain("202");
    const deleted = op("delete", "/api/workspaces/{id}/questions/{question_id}").responses["204"];
    expect(deleted.content).toBeUndefined();
  });

  it("gives every operation a 422 with the HTTPValidationError body, and {detail} for other errors", () => {
    const schemas = doc.components.schemas;
    expect(schemas.HTTPValidationError).toMatchObject({
      type: "object",
      properties: { detail: { type: "array", items: { $ref: "#/components/schemas/ValidationError" } } },
    });
    expect(schemas.HTTPValidationError.required ?? []).toEqual([]);
    expect(schemas.ValidationError.required.sort()).toEqual(["loc", "msg", "type"]);
    expect(schemas.ValidationError.properties.loc).toEqual(
      expect.objectContaining({ type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } }),
    );
    expect(Object.keys(schemas.ValidationError.properties).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
    expect(schemas.ErrorDetail).toMatchObject({ properties: { detail: { type: "string" } }, required: ["detail"] });

    for (const { method, path: p, op: o } of operations()) {
      expect(o.responses["422"]?.content["application/json"].schema, `${method} ${p}`).toEqual({
        $ref: "#/components/schemas/HTTPValidationError",
      });
      for (const code of ["401", "403", "404", "409"]) {
        if (o.responses[code])
          expect(o.responses[code].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorDetail" });
      }
      if (p.startsWith("/api/workspaces/{id}")) expect(o.responses["404"], `${method} ${p}`).toBeDefined();
      if (o.security?.length !== 0) expect(o.responses["401"], `${method} ${p}`).toBeDefined();
    }
  });

  it("documents every route under app/api, and nothing that has no route", () => {
    const routes = routeOperations(path.resolve(import.meta.dirname, "../../app/api"));
    const documented = new Set(operations().map(({ method, path: p }) => `${method.toUpperCase()} ${p}`));
    const undocumented = [...routes].filter((r) => !documented.has(r)).sort();
    const phantom = [...documented].filter((d) => !routes.has(d)).sort();
    expect(undocumented, `routes without an operation in /openapi.json:\n${undocumented.join("\n")}`).toEqual([]);
    expect(phantom, `operations without a route file:\n${phantom.join("\n")}`).toEqual([]);
  });
});

describe("GET /docs", () => {
  it("serves an HTML reference that loads only local files", async () => {
    const page = await call("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith("/"), source).toBe(true);
      const asset = await call("GET", source);
      expect(asset.status, source).toBe(200);
    }
    expect((await call("GET", "/docs/init.js")).body).toContain("/openapi.json");
    expect((await call("GET", "/docs/package.json")).status).toBe(404);
  });
});

/** "METHOD /path/{param}" for each handler exported by each route file (catch-alls excluded). */
function routeOperations(apiDir: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("[...") || entry.name.startsWith("[[...")) continue;
        walk(path.join(dir, entry.name), [...segments, entry.name.replace(/^\[(\w+)\]$/, "{$1}")]);
      } else if (entry.name === "route.ts") {
        const source = fs.readFileSync(path.join(dir, entry.name), "utf8");
        const methods = new Set<string>();
        for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1]);
        for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
          for (const name of m[1].split(",")) {
            const exported = name
              .trim()
              .split(/\s+as\s+/)
              .pop()!;
            if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(exported)) methods.add(exported);
          }
        }
        for (const method of methods) out.add(`${method} /api/${segments.join("/")}`);
      }
    }
  };
  walk(apiDir, []);
  return out;
}
