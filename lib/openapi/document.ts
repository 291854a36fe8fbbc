import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { authOperations } from "@/lib/openapi/operations/auth";
import { codehostOperations, githubOperations } from "@/lib/openapi/operations/codehost";
import { healthOperations } from "@/lib/openapi/operations/health";
import { projectOperations } from "@/lib/openapi/operations/projects";
import { questionOperations } from "@/lib/openapi/operations/questions";
import { scheduleOperations } from "@/lib/openapi/operations/schedules";
import { setupOperations } from "@/lib/openapi/operations/setup";
import { userOperations } from "@/lib/openapi/operations/users";
import { invitationOperations } from "@/lib/openapi/operations/invitations";
import { workspaceOperations } from "@/lib/openapi/operations/workspaces";
import { taskOperations } from "@/lib/openapi/operations/tasks";
import { runOperations } from "@/lib/openapi/operations/runs";
import { eventOperations } from "@/lib/openapi/operations/events";
import { agentOperations } from "@/lib/openapi/operations/agents";
import { mcpOperations } from "@/lib/openapi/operations/mcp";
import { dependencyOperations } from "@/lib/openapi/operations/dependencies";
import { commentOperations } from "@/lib/openapi/operations/comments";
import { webhookOperations } from "@/lib/openapi/operations/webhooks";
import { runnerOperations } from "@/lib/openapi/operations/runners";
import { runnerProtocolOperations } from "@/lib/openapi/operations/runner-protocol";
import { reactionOperations } from "@/lib/openapi/operations/reactions";
import { slackOperations } from "@/lib/openapi/operations/slack";
import { notificationOperations } from "@/lib/openapi/operations/notifications";
import { paginatedTasksResponse, taskResponse, taskRunResponse } from "@/lib/tasks/schemas";
import { paginatedCardsResponse, taskCard } from "@/lib/tasks/card-schemas";
import { execution } from "@/lib/runs/schemas";
import { workspaceEvent } from "@/lib/events/schemas";
import { codehostStatus } from "@/lib/github/connection/schemas";
import { projectResponse } from "@/lib/projects/schemas";
import { questionResponse } from "@/lib/questions/schemas";
import { scheduleDetailResponse, scheduleResponse } from "@/lib/schedules/schemas";

// The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with
// (z.toJSONSchema: "input" for parameters and bodies, "output" for responses), so it cannot drift.

export const OPERATIONS: OperationSpec[] = [
  ...healthOperations,
  ...setupOperations,
  ...authOperations,
  ...userOperations,
  ...workspaceOperations,
  ...invitationOperations,
  ...questionOperations,
  ...projectOperations,
  ...codehostOperations,
  ...githubOperations,
  ...scheduleOperations,
  ...taskOperations,
  ...dependencyOperations,
  ...commentOperations,
  ...runOperations,
  ...eventOperations,
  ...agentOperations,
  ...mcpOperations,
  ...webhookOperations,
  ...slackOperations,
  ...runnerOperations,
  ...runnerProtocolOperations,
  ...reactionOperations,
  ...notificationOperations,
];

/** Schemas shown once under components.schemas and referenced by name wherever they occur. */
const NAMED_SCHEMAS: [z.ZodType, string][] = [
  [questionResponse, "QuestionResponse"],
  [projectResponse, "Project"],
  [codehostStatus, "CodehostStatus"],
  [scheduleResponse, "Schedule"],
  [scheduleDetailResponse, "ScheduleDetail"],
  [taskResponse, "TaskResponse"],
  [taskRunResponse, "TaskRunResponse"],
  [paginatedTasksResponse, "PaginatedTasksResponse"],
  [taskCard, "TaskCard"],
  [paginatedCardsResponse, "PaginatedCardsResponse"],
  [execution, "Execution"],
  [workspaceEvent, "WorkspaceEvent"],
];

type JsonObject = Record<string, unknown>;

const ERROR_DETAIL: JsonObject = {
  type: "object",
  properties: { detail: { type: "string" } },
  required: ["detail"],
  title: "ErrorDetail",
};

// Exactly the interface document's validation error body (FastAPI's HTTPValidationError).
const VALIDATION_ERROR: JsonObject = {
  type: "object",
  title: "ValidationError",
  properties: {
    loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] }, title: "Location" },
    msg: { type: "string", title: "Message" },
    type: { type: "string", title: "Error Type" },
    input: { title: "Input" },
    ctx: { type: "object", title: "Context" },
  },
  required: ["loc", "msg", "type"],
};

const HTTP_VALIDATION_ERROR: JsonObject = {
  type: "object",
  title: "HTTPValidationError",
  properties: { detail: { type: "array", items: { $ref: "#/components/schemas/ValidationError" }, title: "Detail" } },
};

const DEFAULT_ERROR_DESCRIPTIONS: Record<number, string> = {
  401: "Not authenticated: missing, invalid, expired or revoked token",
  403: "Not allowed",
  404: "Not found",
  409: "Conflict with the current state",
  422: "Validation error",
  429: "Too many requests",
};

// Every write behind a person's or an API key's credential (the route wrappers withUser and
// withWorkspace of lib/api/handler.ts) honours it: lib/api/after-reactions.ts, docs/api.md.
const PREFER_WAIT = {
  name: "Prefer",
  in: "header",
  required: false,
  description:
    "`wait=reactions` (RFC 7240): answer once the reactions to this write have run (a dependant started, a card moved), " +
    "at most 2 s; the response then carries `Preference-Applied: wait=reactions`. Without it a write answers as soon as " +
    "its own transaction has committed. Other preferences are ignored, but for `respond-async` on a run's start (its 202 says how).",
  schema: { type: "string", examples: ["wait=reactions"] },
};

let cached: JsonObject | undefined;

export function openApiDocument(): JsonObject {
  cached ??= buildOpenApiDocument(OPERATIONS);
  return cached;
}

export function buildOpenApiDocument(operations: OperationSpec[]): JsonObject {
  const schemas: Record<string, unknown> = {
    ErrorDetail: ERROR_DETAIL,
    ValidationError: VALIDATION_ERROR,
    HTTPValidationError: HTTP_VALIDATION_ERROR,
  };
  const convert = converter(schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const parameters = [
      ...parametersOf(op.params, "path", convert),
      ...parametersOf(op.query, "query", convert),
      ...(op.method !== "get" && (op.auth ?? true) === true ? [PREFER_WAIT] : []),
    ];
    paths[op.path] ??= {};
    if (paths[op.path][op.method]) throw new Error(`Duplicate operation ${op.method.toUpperCase()} ${op.path}`);
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      tags: op.tags,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: convert(op.body, "input") } } } } : {}),
      ...(op.rawBody
        ? {
            requestBody: {
              required: true,
              description: op.rawBody.description,
              // OpenAPI 3.1's way to say "these bytes": a media type with no schema to validate.
              content: { [op.rawBody.contentType]: {} },
            },
          }
        : {}),
      responses: responsesOf(op, convert),
      ...(op.auth === false ? { security: [] } : op.auth === "runner" ? { security: [{ runnerToken: [] }] } : {}),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Taskboard API",
      version: "0.1.0",
      description:
        "A Kanban task board where people and AI coding agents work together. Send `Authorization: Bearer <token>` " +
        'with an access token from POST /api/auth/login or an API key. Errors are `{"detail": "…"}`; ' +
        'validation errors (422) are `{"detail": [{loc, msg, type, input?, ctx?}]}`. A write answers once its own ' +
        "transaction has committed; send `Prefer: wait=reactions` to have it answer after the reactions to it too " +
        "(a dependant started, a card moved; at most 2 s).",
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Access token or API key" },
        runnerToken: { type: "http", scheme: "bearer", description: "A runner's token (POST /api/runners); valid only under /api/runner/" },
      },
    },
    security: [{ bearerAuth: [] }],
  };
}

type Convert = (schema: z.ZodType, io: "input" | "output") => JsonObject;

function responsesOf(op: OperationSpec, convert: Convert) {
  const entries: OperationSpec["responses"] = { ...op.responses };
  // Every operation may answer 422 (the interface document lists it for all), and the wrappers in
  // lib/api/handler.ts add 401 (authentication) and 404 (workspace membership) before any handler runs.
  if (op.auth !== false) entries[401] ??= { description: DEFAULT_ERROR_DESCRIPTIONS[401] };
  if (op.path.startsWith("/api/workspaces/{id}")) entries[404] ??= { description: "Workspace not found (or the caller is not a member)" };
  entries[422] ??= { description: DEFAULT_ERROR_DESCRIPTIONS[422] };
  const out: Record<string, unknown> = {};
  for (const [status, entry] of Object.entries(entries).sort(([a], [b]) => Number(a) - Number(b))) {
    const code = Number(status);
    const schema = entry.schema
      ? convert(entry.schema, "output")
      : code === 422
        ? { $ref: "#/components/schemas/HTTPValidationError" }
        : code >= 400
          ? { $ref: "#/components/schemas/ErrorDetail" }
          : undefined;
    out[status] = {
      description: entry.description || DEFAULT_ERROR_DESCRIPTIONS[code] || "",
      ...(schema ? { content: { [entry.contentType ?? "application/json"]: { schema } } } : {}),
    };
  }
  return out;
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query", convert: Convert) {
  if (!schema) return [];
  const json = convert(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    // A default outside a preprocess (queryInt(...).default(n)) is lost by the conversion; recover it.
    const def = (shape[name] as unknown as { _zod?: { def?: { type?: string; defaultValue?: unknown } } })?._zod?.def;
    if (def?.type === "default" && rest.default === undefined) rest.default = def.defaultValue;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/**
 * Converts zod schemas, lifting named ones into `schemas` (components) and pointing $refs there.
 * The same name seen with a different shape (a request's input form) gets an "Input" suffix.
 */
function converter(schemas: Record<string, unknown>): Convert {
  const names = new Map(NAMED_SCHEMAS);
  // toJSONSchema reads ids only through metadata.get(); this one adds our names to the descriptions
  // and examples kept in zod's global registry, without registering ids globally (where two
  // branches choosing the same id would throw at start-up).
  const metadata = {
    get(schema: z.ZodType) {
      const meta = z.globalRegistry.get(schema);
      const id = names.get(schema);
      return id ? { ...meta, id } : meta;
    },
  } as unknown as z.core.$ZodRegistry<z.core.JSONSchemaMeta>;

  return (schema, io) => {
    const json = z.toJSONSchema(schema, { io, metadata, unrepresentable: "any", target: "draft-2020-12" }) as JsonObject;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonObject>;
    delete json.$defs;
    const renamed = new Map<string, string>();
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value && typeof value === "object") {
        const out: JsonObject = {};
        for (const [key, inner] of Object.entries(value)) {
          // z.int() states the safe-integer range; as a documented bound it is only noise.
          if ((key === "minimum" || key === "maximum") && Math.abs(inner as number) === Number.MAX_SAFE_INTEGER) continue;
          out[key] =
            key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
              ? `#/components/schemas/${renamed.get(inner.slice(8)) ?? inner.slice(8)}`
              : rewrite(inner);
        }
        return out;
      }
      return value;
    };
    // While `renamed` is empty, rewrite() maps every $ref to the plain name: the form to compare.
    const plain = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, rewrite(def)]));
    for (const name of Object.keys(defs)) {
      const clash = schemas[name] !== undefined && !sameJson(schemas[name], plain[name]);
      renamed.set(name, clash ? `${name}${io === "input" ? "Input" : "Output"}` : name);
    }
    for (const [name, def] of Object.entries(defs)) schemas[renamed.get(name)!] ??= rewrite(def);
    return rewrite(json) as JsonObject;
  };
}

function sameJson(a: unknown, b: unknown) {
  return JSON.stringify(a) === JSON.stringify(b);
}
