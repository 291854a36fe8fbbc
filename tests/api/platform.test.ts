import { describe, expect, inject, it } from "vitest";
import { call, newUser } from "../helpers/api";

describe("platform", () => {
  it("reports health and which database it runs on", async () => {
    const response = await call("GET", "/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", database: inject("databaseKind") });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await call("GET", "/api/no/such/thing");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Not Found" });
  });

  it("refuses bodies over 1 MiB with 413 and writes nothing", async () => {
    const user = await newUser();
    const huge = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });
    const response = await call("POST", "/api/workspaces", {
      token: user.token,
      body: huge,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(response.body.detail).toMatch(/larger than/);
    expect((await call("GET", "/api/workspaces", { token: user.token })).body).toEqual([]);
  });

  it("puts a request id on every response", async () => {
    const response = await call("GET", "/api/auth/me");
    expect(response.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });

  it("the setup step is closed once an admin exists", async () => {
    expect((await call("GET", "/api/setup")).body).toEqual({ needs_setup: false, code_required: false });
    const response = await call("POST", "/api/setup", { json: { username: "intruder", password: "password123" } });
    expect(response.status).toBe(409);
  });
});
