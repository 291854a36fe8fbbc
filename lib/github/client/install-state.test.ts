import { describe, expect, it } from "vitest";
import { INSTALL_STATE_TTL_MS, signInstallState, verifyInstallState } from "@/lib/github/client/install-state";

const SECRET = "server-secret-for-tests";
const ids = { workspaceId: "0195a1b2-0000-7000-8000-000000000001", userId: "0195a1b2-0000-7000-8000-00000000000a" };

describe("install state", () => {
  it("verifies for the user who started it and names the workspace", () => {
    const state = signInstallState(ids, SECRET);
    expect(verifyInstallState(state, SECRET, { userId: ids.userId })).toEqual({ ok: true, ...ids });
    expect(verifyInstallState(state, SECRET, ids)).toEqual({ ok: true, ...ids });
  });

  it("is URL-safe and differs each time", () => {
    const a = signInstallState(ids, SECRET);
    expect(a).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signInstallState(ids, SECRET)).not.toBe(a);
  });

  it("refuses another user, another workspace, another secret", () => {
    const state = signInstallState(ids, SECRET);
    expect(verifyInstallState(state, SECRET, { userId: "someone-else" })).toEqual({ ok: false, reason: "wrong_user" });
    expect(verifyInstallState(state, SECRET, { ...ids, workspaceId: "other" })).toEqual({ ok: false, reason: "wrong_workspace" });
    expect(verifyInstallState(state, "another-secret", ids)).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses a payload changed after signing", () => {
    const [body, signature] = signInstallState(ids, SECRET).split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, w: "victim-workspace" })).toString("base64url");
    expect(verifyInstallState(`${forged}.${signature}`, SECRET, { userId: ids.userId })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyInstallState(`${body}.${signature.slice(0, -2)}AA`, SECRET, ids)).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("expires after one hour", () => {
    const issued = Date.UTC(2026, 10, 23, 12, 0, 0);
    const state = signInstallState(ids, SECRET, issued);
    expect(verifyInstallState(state, SECRET, ids, issued + INSTALL_STATE_TTL_MS - 1).ok).toBe(true);
    expect(verifyInstallState(state, SECRET, ids, issued + INSTALL_STATE_TTL_MS)).toEqual({ ok: false, reason: "expired" });
    expect(INSTALL_STATE_TTL_MS).toBe(3_600_000);
  });

  it.each(["", "abc", "a.b.c", ".sig", "body."])("refuses the malformed state %j", (state) => {
    expect(verifyInstallState(state, SECRET, ids)).toEqual({ ok: false, reason: "malformed" });
  });
});
