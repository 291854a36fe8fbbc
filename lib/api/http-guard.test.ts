import { describe, expect, it } from "vitest";
import { refusal } from "@/lib/api/http-guard";

// The decision only; tests/api/malformed-requests.test.ts sends these requests to the server.
describe("which requests the guard answers before Next", () => {
  it("lets documented methods, pages and unknown API paths (for app/api/[...path]) through", () => {
    expect(refusal("GET", "/api/health")).toBeNull();
    expect(refusal("PATCH", "/api/workspaces/w1/tasks/t1")).toBeNull();
    expect(refusal("OPTIONS", "/api/workspaces/w1/board")).toBeNull();
    expect(refusal("GET", "/w/w1/settings")).toBeNull();
    expect(refusal("DELETE", "/w/w1/settings")).toBeNull();
    expect(refusal("PATCH", "/api/nope/deeper")).toBeNull();
    expect(refusal("POST", "/api/auth/callback/credentials")).toBeNull();
  });

  it("answers an undocumented method under /api with 405 and the path's methods", () => {
    expect(refusal("PUT", "/api/health")).toEqual({ status: 405, api: true, allow: ["GET", "HEAD", "OPTIONS"] });
    expect(refusal("GET", "/api/webhooks/github")).toEqual({ status: 405, api: true, allow: ["POST", "OPTIONS"] });
    expect(refusal("PUT", "/api/auth/session")?.status).toBe(405);
    // A trailing slash names the same path (Next redirects a GET there).
    expect(refusal("PUT", "/api/health/")?.status).toBe(405);
  });

  it("answers TRACE everywhere, malformed paths with 404, and odd methods on unknown API paths with 404", () => {
    expect(refusal("TRACE", "/")).toEqual({ status: 405, api: true, allow: ["GET", "HEAD", "POST", "OPTIONS"] });
    expect(refusal("GET", "/api/workspaces/%ff")).toEqual({ status: 404, api: true });
    expect(refusal("GET", "/w/%ff/settings")).toEqual({ status: 404, api: false });
    expect(refusal("GET", "/api/tasks/a%00b")).toEqual({ status: 404, api: true });
    expect(refusal("PROPFIND", "/api/nope")).toEqual({ status: 404, api: true });
    expect(refusal("GET", "/api")).toEqual({ status: 404, api: true });
  });
});
