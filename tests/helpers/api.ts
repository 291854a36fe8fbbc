import crypto from "node:crypto";
import { beforeAll, inject } from "vitest";
import { ADMIN } from "../setup/global-server";

// Small HTTP client for API tests: real requests to the real server.

export const baseUrl = () => inject("baseUrl");

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /**
   * Sends `Prefer: wait=reactions` (the default here): a write answers once the reactions to it have
   * run (a dependant started, a task moved by the board), so a test reads a settled state next.
   * False: the API's own default, answered at commit (tests/api/writes-and-reactions.test.ts).
   */
  waitForReactions?: boolean;
}

const WAIT = { prefer: "wait=reactions" };

/** The one HTTP client of the tests, for a server at `url`: `call` below is the shared server's. */
export function client(url: string) {
  return Object.assign(call, { url });
  async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.waitForReactions === false ? {} : WAIT), ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const response = await fetch(url + path, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
}

/** The server this run shares, shaped like an engine server's `{ url, call }` for helpers that take either. */
export function sharedServer() {
  return { url: baseUrl(), call: client(baseUrl()) };
}

/** A request to the server this run shares (tests/setup/global-server.ts). */
export function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  return client(baseUrl())<T>(method, path, options);
}

export async function login(username: string, password: string) {
  const response = await call("POST", "/api/auth/login", { json: { username, password } });
  if (response.status !== 200) throw new Error(`login ${username}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { access_token: string; refresh_token: string; expire_days: number; token_type: string };
}

let adminToken: Promise<string> | undefined;
export function admin(): Promise<string> {
  adminToken ??= login(ADMIN.username, ADMIN.password).then((r) => r.access_token);
  return adminToken;
}

export function uniqueName(prefix = "user") {
  return `${prefix}_${crypto.randomBytes(5).toString("hex")}`;
}

/** A fresh user (made by the admin) and its access token. */
export async function newUser(options: { isAdmin?: boolean } = {}) {
  const username = uniqueName();
  const password = "password-" + crypto.randomBytes(4).toString("hex");
  const created = await call("POST", "/api/users", {
    token: await admin(),
    json: { username, password, is_admin: options.isAdmin ?? false },
  });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${JSON.stringify(created.body)}`);
  const tokens = await login(username, password);
  return { id: created.body.id as string, username, password, token: tokens.access_token, refreshToken: tokens.refresh_token };
}

export async function newWorkspace(token: string, name = uniqueName("ws")) {
  const response = await call("POST", "/api/workspaces", { token, json: { name } });
  if (response.status !== 201) throw new Error(`create workspace: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: string; name: string; created_at: string; updated_at: string };
}

/** The one validation entry of a 422 body, for exact loc/type assertions. */
export function onlyError(body: { detail: { loc: unknown[]; type: string }[] }) {
  if (!Array.isArray(body?.detail) || body.detail.length !== 1) throw new Error(`expected one error: ${JSON.stringify(body)}`);
  return { loc: body.detail[0].loc, type: body.detail[0].type };
}

/** Before the file's tests: a fresh user (its owner) and a workspace of theirs; read the fields inside tests. */
export function userWithWorkspace() {
  const made = {} as { owner: Awaited<ReturnType<typeof newUser>>; token: string; ws: string };
  beforeAll(async () => {
    made.owner = await newUser();
    made.token = made.owner.token;
    made.ws = (await newWorkspace(made.token)).id;
  });
  return made;
}
