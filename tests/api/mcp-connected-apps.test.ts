import { describe, expect, it } from "vitest";
import { baseUrl, call, newUser } from "../helpers/api";
import { tokenRequest, tokensFor } from "../helpers/oauth";

// Settings → Connected apps over HTTP (docs/mcp.md, "Connected apps"): the clients a person allowed
// over OAuth, and disconnecting one, on the shared server.

const mcpUrl = () => `${baseUrl()}/api/mcp`;

describe("MCP OAuth: connected apps", () => {
  const listTools = (token: string) =>
    fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  it("lists the clients a person allowed, with their last use, and disconnecting one ends its tokens", async () => {
    const person = await newUser();
    const other = await newUser();
    const tokens = await tokensFor(baseUrl(), person);
    const theirs = await tokensFor(baseUrl(), other);
    expect((await listTools(tokens.access_token)).status).toBe(200);

    const listed = await call("GET", "/api/me/oauth-clients", { token: person.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        client_id: tokens.clientId,
        name: "Test MCP client",
        redirect_hosts: ["127.0.0.1:9"],
        connected_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    expect(Date.now() - Date.parse(listed.body[0].last_used_at)).toBeLessThan(60_000);

    // Someone else's client is not theirs to see or end.
    const foreign = await call("DELETE", `/api/me/oauth-clients/${encodeURIComponent(theirs.clientId)}`, { token: person.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe("Connected app not found");
    expect((await listTools(theirs.access_token)).status).toBe(200);

    const gone = await call("DELETE", `/api/me/oauth-clients/${encodeURIComponent(tokens.clientId)}`, { token: person.token });
    expect(gone.status).toBe(204);
    expect((await listTools(tokens.access_token)).status).toBe(401);
    const refreshed = await tokenRequest(baseUrl(), {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(refreshed.body.error).toBe("invalid_grant");
    expect((await call("GET", "/api/me/oauth-clients", { token: person.token })).body).toEqual([]);
    expect((await call("DELETE", `/api/me/oauth-clients/${encodeURIComponent(tokens.clientId)}`, { token: person.token })).status).toBe(
      404,
    );
    // The other person's stays connected.
    expect((await call("GET", "/api/me/oauth-clients", { token: other.token })).body).toHaveLength(1);
    expect((await listTools(theirs.access_token)).status).toBe(200);
  });

  it("refuses a missing or invalid credential, and an MCP client's own token", async () => {
    const person = await newUser();
    const tokens = await tokensFor(baseUrl(), person);
    expect((await call("GET", "/api/me/oauth-clients")).status).toBe(401);
    expect((await call("GET", "/api/me/oauth-clients", { token: "tb_not-a-token" })).status).toBe(401);
    // An OAuth access token is good on /api/mcp alone: it cannot list or end connections.
    expect((await call("GET", "/api/me/oauth-clients", { token: tokens.access_token })).status).toBe(401);
    expect(
      (await call("DELETE", `/api/me/oauth-clients/${encodeURIComponent(tokens.clientId)}`, { token: tokens.access_token })).status,
    ).toBe(401);
    expect((await listTools(tokens.access_token)).status).toBe(200);
  });
});
