import { describe, expect, it, vi } from "vitest";
import { errorResponse, json } from "@/lib/api/handler";
import { HttpError } from "@/lib/platform/errors";

describe("errorResponse, the one place errors become responses", () => {
  it("hides an unexpected error behind a 500 with the request id, and logs it with the stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = errorResponse(new TypeError("secret internals at /srv/app.ts:12"), "req-123");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: "Internal Server Error" });
    expect(response.headers.get("x-request-id")).toBe("req-123");
    expect(log).toHaveBeenCalledWith("[req-123] unhandled error", expect.any(TypeError));
    log.mockRestore();
  });

  it("keeps an HttpError's status, detail and headers", async () => {
    const response = errorResponse(new HttpError(429, "slow down", { "Retry-After": "7" }), "r");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(await response.json()).toEqual({ detail: "slow down" });
  });

  it("turns Prisma's unique-violation into 409", async () => {
    const response = errorResponse(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }), "r");
    expect(response.status).toBe(409);
  });
});

describe("json answers and compression", () => {
  it("tells Next's compression to leave an answer under 1 kB alone, and lets a larger one be gzipped", async () => {
    const small = json({ id: "x".repeat(900) });
    expect(small.headers.get("cache-control")).toBe("no-transform");
    expect(small.headers.get("content-type")).toBe("application/json");
    const large = json({ id: "x".repeat(1100) }, 201, { "x-extra": "1" });
    expect(large.headers.get("cache-control")).toBeNull();
    expect(large.status).toBe(201);
    expect(large.headers.get("x-extra")).toBe("1");
    expect(await large.json()).toEqual({ id: "x".repeat(1100) });
  });
});
