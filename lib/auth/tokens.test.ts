import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { authenticate } from "@/lib/auth/authenticate";
import { HttpError } from "@/lib/platform/errors";
import { issueLoginTokens, rotateRefreshToken } from "@/lib/auth/tokens";
import { createApiKey } from "@/lib/auth/api-keys";

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  vi.useRealTimers();
  await database?.close();
});

const bearer = (token: string) => new Request("http://localhost/api/auth/me", { headers: { authorization: `Bearer ${token}` } });

describe("token expiry", () => {
  it("an access token expires after ACCESS_TOKEN_EXPIRE_DAYS, an API key after its own days", async () => {
    const { db } = database;
    const user = await db.user.create({ data: { username: "clock", passwordHash: "x" } });
    const login = await issueLoginTokens(db, user.id);
    const key = await createApiKey(db, user.id, "short", 1);
    await expect(authenticate(bearer(login.access_token), database.sql)).resolves.toMatchObject({ userId: user.id, kind: "access" });
    await expect(authenticate(bearer(key.key), database.sql)).resolves.toMatchObject({ kind: "api_key" });

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    await expect(authenticate(bearer(key.key), database.sql)).rejects.toMatchObject({ status: 401, detail: "Token expired" });
    await expect(authenticate(bearer(login.access_token), database.sql)).resolves.toBeTruthy();

    vi.setSystemTime(Date.now() + 6 * 86_400_000);
    const expired = await authenticate(bearer(login.access_token), database.sql).catch((error) => error);
    expect(expired).toBeInstanceOf(HttpError);
    expect(expired.status).toBe(401);
    // The refresh token lives longer (30 days) and still yields a fresh pair.
    const renewed = await rotateRefreshToken(db, login.refresh_token);
    await expect(authenticate(bearer(renewed.access_token), database.sql)).resolves.toMatchObject({ userId: user.id });
    vi.useRealTimers();
  });
});
