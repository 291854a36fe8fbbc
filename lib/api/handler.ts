import crypto from "node:crypto";
import { z } from "zod";
import { after } from "next/server";
import { connection, type Db } from "@/lib/db/client";
import type { Sql } from "@/lib/db/sql";
import { authenticate, authenticateAndRead, type Caller, type WorkspaceRead } from "@/lib/auth/authenticate";
import type { MemberRole } from "@/lib/generated/prisma/enums";
import { agentRefused, forbidden, HttpError, notFound, unauthorized } from "@/lib/platform/errors";
import { parseWith } from "@/lib/api/validation";
import { readJsonBody } from "@/lib/api/read-body";
import { DataDirInUseError } from "@/lib/db/pglite-lock";
import { countSqlStatements } from "@/lib/db/sql-count";
import { startAnswering } from "@/lib/db/requests-first";
import { actingAs } from "@/lib/events/actor";
import { afterReactions } from "@/lib/api/after-reactions";
import { jsonHeaders } from "@/lib/api/json-headers";
import type { EventActor } from "@/lib/events/event-types";

// Every route handler is one of these wrappers around a small function. The wrapper does, in this
// order: authentication (401), workspace membership (404, so ids reveal nothing), validation of
// path, query and body (422), then the handler; and it is the one place errors become responses.

export interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A larger body than MAX_BODY_BYTES, for the one route that needs it (a runner's diff upload). */
  bodyLimit?: number;
}

type Parsed<S extends Schemas, K extends keyof Schemas> = S[K] extends z.ZodType ? z.output<S[K]> : undefined;

export interface PublicContext<S extends Schemas> {
  request: Request;
  params: Parsed<S, "params">;
  query: Parsed<S, "query">;
  body: Parsed<S, "body">;
  db: Db;
  /** Prepared statements for hot reads; never inside a transaction (lib/db/sql.ts). */
  sql: Sql;
  requestId: string;
}

export interface UserContext<S extends Schemas> extends PublicContext<S> {
  caller: Caller;
}

export interface WorkspaceContext<S extends Schemas> extends UserContext<S> {
  workspace: { id: string; name: string };
  role: MemberRole;
}

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;

export const MAX_BODY_BYTES = 1024 * 1024;

/** A route without a caller. `before` checks the request's headers before its body is read. */
export function publicRoute<S extends Schemas>(
  schemas: S & { before?: (request: Request) => void },
  handler: (ctx: PublicContext<S>) => Promise<Response>,
): RouteHandler {
  return respond(async (request, rawParams, requestId) => {
    schemas.before?.(request);
    const { db, sql } = await connection();
    return handler({ request, db, sql, requestId, ...(await parseInputs(schemas, request, rawParams)) });
  });
}

/**
 * A route outside any workspace. Workspace-scoped (agent) tokens are refused here unless the route
 * says `agentAllowed`: deny by default, so a new account-level route cannot forget them.
 */
export function withUser<S extends Schemas>(
  schemas: S & { adminOnly?: boolean; agentAllowed?: boolean; bearerOnly?: boolean },
  handler: (ctx: UserContext<S>) => Promise<Response>,
): RouteHandler {
  return respond(async (request, rawParams, requestId) => {
    const { db, sql } = await connection();
    // `bearerOnly`: endpoints for programs (the MCP server), where a browser's cookie riding along
    // on a cross-site request must never count as the caller.
    if (schemas.bearerOnly && !request.headers.has("authorization")) throw unauthorized();
    const caller = await authenticate(request, sql);
    if (caller.workspaceScope && !schemas.agentAllowed) throw forbidden(agentRefused("act outside its own workspace"));
    if (schemas.adminOnly && !caller.isAdmin) throw forbidden("Only administrators may do this");
    const inputs = await parseInputs(schemas, request, rawParams);
    return afterReactions(request, db, () => actingAs(actorOf(caller), () => handler({ request, db, sql, requestId, caller, ...inputs })));
  });
}

/**
 * What a workspace route refuses agent tokens, declared on the route rather than checked in it:
 * `humansOnly` the whole operation (`true`, or the operation in words for the 403: "change
 * schedules"), `humansOnlyFields` the body fields only an agent may not send. `ownerOnly` routes
 * refuse agent tokens too (the token acts as a member at most), in the same words.
 */
export interface AgentRules {
  ownerOnly?: boolean;
  humansOnly?: boolean | string;
  humansOnlyFields?: readonly string[];
}

/**
 * A route inside a workspace. An agent token acts here only in its own workspace, with at most the
 * member role, and never on `humansOnly` or `ownerOnly` routes nor with `humansOnlyFields`.
 */
export function withWorkspace<S extends Schemas>(
  schemas: S & AgentRules,
  handler: (ctx: WorkspaceContext<S>) => Promise<Response>,
): RouteHandler {
  return respond(async (request, rawParams, requestId) => {
    const { db, sql } = await connection();
    const workspaceId = String(rawParams.id ?? "");
    const { caller, membership } = await workspaceAccess(request, sql, workspaceId);
    if (caller.workspaceScope && (schemas.humansOnly || schemas.ownerOnly)) {
      const what =
        typeof schemas.humansOnly === "string" ? schemas.humansOnly : schemas.ownerOnly ? "do what only workspace owners do" : null;
      throw forbidden(agentRefused(what));
    }
    if (!READ_METHODS.has(request.method)) refuseViewer(membership.role);
    if (schemas.ownerOnly && membership.role !== "owner") throw forbidden("Only workspace owners may do this");
    const inputs = await parseInputs(schemas, request, rawParams);
    if (schemas.humansOnlyFields) refuseAgentFields(caller, inputs.body, schemas.humansOnlyFields);
    return afterReactions(request, db, () =>
      actingAs(actorOf(caller), () =>
        handler({
          request,
          db,
          sql,
          requestId,
          caller,
          workspace: { id: workspaceId, name: membership.workspaceName },
          role: membership.role,
          ...inputs,
        }),
      ),
    );
  });
}

/**
 * A workspace route whose whole answer is one SQL read (the board's pages). The read travels in
 * the credential check's statement, one round trip instead of two, and its JSON text is the
 * response body. The answers come in withWorkspace's order all the same: 401, 404, then 422.
 */
export function withWorkspaceRead<S extends Schemas>(
  schemas: S,
  read: (inputs: Pick<PublicContext<S>, "params" | "query">) => WorkspaceRead,
): RouteHandler {
  return respond(async (request, rawParams) => {
    const { sql } = await connection();
    const workspaceId = String(rawParams.id ?? "");
    const inputs = await parseInputs(schemas, request, rawParams).then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    const { caller, body } = await authenticateAndRead(request, sql, workspaceId, inputs.value && read(inputs.value));
    membershipOf(caller, workspaceId);
    if (inputs.error) throw inputs.error;
    return jsonText(body!);
  });
}

/** `data` cannot be undefined: JSON has no such value, and JSON.stringify would give no text at all. */
export function json(data: NonNullable<unknown> | null, status = 200, headers?: Record<string, string>): Response {
  return jsonText(JSON.stringify(data), status, headers);
}

/** A body that is JSON text already (PostgreSQL wrote it; see lib/tasks/load-tasks.ts). */
export function jsonText(body: string, status = 200, headers?: Record<string, string>): Response {
  return new Response(body, { status, headers: { ...headers, ...jsonHeaders(body) } });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** Turns anything a handler throws into the documented error body. */
export function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof HttpError) {
    return json({ detail: error.detail }, error.status, { ...error.headers, "x-request-id": requestId });
  }
  const prismaCode = (error as { code?: unknown })?.code;
  if (prismaCode === "P2002") return json({ detail: "Already exists" }, 409, { "x-request-id": requestId });
  if (prismaCode === "P2025") return json({ detail: "Not found" }, 404, { "x-request-id": requestId });
  if (error instanceof DataDirInUseError) {
    console.error(`[${requestId}] ${error.message}`);
    return json({ detail: error.message }, 503, { "x-request-id": requestId });
  }
  console.error(`[${requestId}] unhandled error`, error);
  return json({ detail: "Internal Server Error" }, 500, { "x-request-id": requestId });
}

/**
 * The caller of a workspace route and their membership: 401 without a valid credential, 404 when
 * not a member. Long-lived responses (the event stream) call it again to notice revocation.
 */
export async function workspaceAccess(request: Request, sql: Sql, workspaceId: string) {
  const caller = await authenticate(request, sql, workspaceId);
  return { caller, membership: membershipOf(caller, workspaceId) };
}

function actorOf(caller: Caller): EventActor {
  return { type: caller.kind === "agent" ? "agent" : "user", user_id: caller.userId, username: caller.username };
}

const AGENT_REFUSED = "Agent tokens may not do this: they act only inside their own workspace, as a member";

/**
 * 403 when an agent token sends any of `fields` in `body` (even null: clearing is a change too).
 * The routes declare it (`humansOnlyFields`); the MCP server's tools call it with the same list.
 */
export function refuseAgentFields(caller: Caller, body: unknown, fields: readonly string[]) {
  if (!caller.workspaceScope || !body || typeof body !== "object") return;
  const sent = fields.filter((field) => (body as Record<string, unknown>)[field] !== undefined);
  if (sent.length > 0) throw forbidden(agentRefused(`set ${sent.join(" or ")}`));
}

const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * A viewer reads and changes nothing: every other method on a workspace route is refused here, in
 * one place, so a new route cannot forget it. The MCP server's writing tools call it too.
 */
export function refuseViewer(role: MemberRole) {
  if (role === "viewer") {
    throw forbidden("Viewers can read this workspace but not change it; ask a workspace owner for the member role");
  }
}

// Agent tokens act in one workspace only (403 elsewhere, whether or not the id exists, so it
// reveals nothing), with at most the member role; everyone else in the workspaces they belong to.
// Exported for the MCP server, whose tools name their workspace in arguments rather than the path.
export function membershipOf(caller: Caller, workspaceId: string) {
  if (caller.workspaceScope && caller.workspaceScope !== workspaceId) throw forbidden(AGENT_REFUSED);
  if (!caller.membership) throw notFound("Workspace");
  // A viewer's agent token stays a viewer: a token never holds more than the person behind it.
  if (!caller.workspaceScope || caller.membership.role === "viewer") return caller.membership;
  return { ...caller.membership, role: "member" as MemberRole };
}

/** The route handler around `run`. A runner's request is `background`: people's go first (lib/db/requests-first.ts). */
export function respond(
  run: (request: Request, rawParams: Record<string, unknown>, requestId: string) => Promise<Response>,
  { background = false } = {},
): RouteHandler {
  return async (request, context) => {
    const requestId = request.headers.get("x-request-id") || crypto.randomUUID();
    const answer = async () => {
      try {
        const response = await run(request, (await context?.params) ?? {}, requestId);
        response.headers.set("x-request-id", requestId);
        return response;
      } catch (error) {
        return errorResponse(error, requestId);
      }
    };
    const answered = background ? undefined : startAnswering();
    const counted = countSqlStatements(answer);
    const response = await counted.result;
    // How many SQL statements this request sent (tests and the benchmark check it stays constant).
    response.headers.set("x-sql-statements", String(counted.count()));
    if (answered) letGoOnceSent(response, answered);
    return response;
  };
}

/**
 * Ends a request's hold on background work (lib/db/requests-first.ts) once Next has sent its
 * response (`after` runs when the connection's response closes). A stream of events is sent for as
 * long as its reader stays, so it lets go at once.
 */
function letGoOnceSent(response: Response, release: () => void) {
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) return release();
  try {
    after(release);
  } catch {
    release(); // outside a Next request (a test calling the handler itself): nothing is sent later
  }
}

export async function parseInputs<S extends Schemas>(schemas: S, request: Request, rawParams: Record<string, unknown>) {
  const url = new URL(request.url);
  const params = schemas.params ? parseWith(schemas.params, rawParams, "path") : undefined;
  const query = schemas.query ? parseWith(schemas.query, queryObject(url.searchParams), "query") : undefined;
  const body = schemas.body ? parseWith(schemas.body, await readJsonBody(request, schemas.bodyLimit ?? MAX_BODY_BYTES), "body") : undefined;
  return { params, query, body } as { params: Parsed<S, "params">; query: Parsed<S, "query">; body: Parsed<S, "body"> };
}

function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}
