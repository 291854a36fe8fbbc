import { describe, expect, it } from "vitest";
import { admin, baseUrl, call, newUser, userWithWorkspace } from "../helpers/api";
import { signIn } from "../helpers/browser-session";
import { data, mcpConnector, tool } from "../helpers/mcp";
import { REDIRECT_URI, authorize, authorizeUrl, decide, follow, pkce, registerClient, tokenRequest, tokensFor } from "../helpers/oauth";

// MCP over OAuth (docs/mcp.md, "OAuth"), black-box on the shared server: the metadata documents,
// dynamic registration, the code flow with PKCE driven as a client and a person's browser would,
// refresh, the token on /api/mcp, and what is refused.

const made = userWithWorkspace();
const connect = mcpConnector(baseUrl);
const mcpUrl = () => `${baseUrl()}/api/mcp`;

describe("MCP OAuth: discovery", () => {
  it("publishes protected resource metadata at the root and path-suffixed, naming this server", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/api/mcp"]) {
      const response = await call("GET", path);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ resource: mcpUrl(), authorization_servers: [baseUrl()], scopes_supported: ["mcp"] });
    }
  });

  it("publishes authorization server metadata: S256 only, registration, code and refresh", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const { status, body } = await call("GET", path);
      expect(status).toBe(200);
      expect(body.issuer).toBe(baseUrl());
      expect(body.code_challenge_methods_supported).toEqual(["S256"]);
      expect(body.registration_endpoint).toBe(`${baseUrl()}/oauth/register`);
      expect(body.response_types_supported).toEqual(["code"]);
      expect(body.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
      expect(body.token_endpoint_auth_methods_supported).toContain("none");
    }
  });

  it("answers /api/mcp without credentials 401, naming the metadata", async () => {
    const response = await fetch(mcpUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${baseUrl()}/.well-known/oauth-protected-resource/api/mcp", scope="mcp"`,
    );
  });
});

describe("MCP OAuth: registration and the code flow", () => {
  it("registers a public client dynamically, and refuses a client without redirect URIs", async () => {
    const client = await registerClient(baseUrl());
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({
      client_name: "Test MCP client",
      token_endpoint_auth_method: "none",
      redirect_uris: [REDIRECT_URI],
    });
    expect(client.body.client_secret).toBeUndefined();
    const bad = await registerClient(baseUrl(), { redirect_uris: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_redirect_uri");
  });

  it("signs the person in, and the token lists their tasks on /api/mcp", async () => {
    const task = await call("POST", `/api/workspaces/${made.ws}/tasks`, { token: made.token, json: { title: "Seen over OAuth" } });
    const tokens = await tokensFor(baseUrl(), made.owner);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const mcp = await connect(tokens.access_token);
    const listed = data(await tool(mcp, "list_tasks", { workspace_id: made.ws }));
    expect(listed.items.map((item: { id: string }) => item.id)).toContain(task.body.id);
    const { workspaces } = data(await tool(mcp, "list_workspaces", {}));
    expect(workspaces).toEqual([expect.objectContaining({ id: made.ws, role: "owner" })]);
  });

  it("refreshes, rotating the refresh token; a reused one is refused", async () => {
    const tokens = await tokensFor(baseUrl(), made.owner);
    const refreshed = await tokenRequest(baseUrl(), {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    const mcp = await connect(refreshed.body.access_token);
    expect(data(await tool(mcp, "list_workspaces", {})).workspaces).toHaveLength(1);
    const reused = await tokenRequest(baseUrl(), {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
  });

  it("sends a signed-out person to the login page and back to the consent page", async () => {
    const client = await registerClient(baseUrl());
    const start = authorizeUrl(baseUrl(), client.body.client_id, { code_challenge: pkce().challenge, code_challenge_method: "S256" });
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    const consent = await follow(baseUrl(), start, jar);
    expect(consent.location).toMatch(/\/oauth\/consent\/[\w-]+$/);
    const signedOut = await fetch(consent.location, { redirect: "manual" });
    const login = new URL(signedOut.headers.get("location") ?? "", baseUrl());
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("callbackUrl")).toBe(new URL(consent.location).pathname);
  });

  it("tells the client access_denied when the person denies", async () => {
    const client = await registerClient(baseUrl());
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    const start = authorizeUrl(baseUrl(), client.body.client_id, { code_challenge: pkce().challenge, code_challenge_method: "S256" });
    const consent = await follow(baseUrl(), start, jar);
    const answer = await decide(baseUrl(), consent.location, jar, "deny");
    const back = await follow(baseUrl(), new URL(answer.body.location, baseUrl()).href, jar);
    const callback = new URL(back.location);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
  });
});

describe("MCP OAuth: refusals", () => {
  it("refuses an authorization request without PKCE, or with the plain method", async () => {
    const client = await registerClient(baseUrl());
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    for (const params of [{}, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }]) {
      const back = await follow(baseUrl(), authorizeUrl(baseUrl(), client.body.client_id, params), jar);
      const callback = new URL(back.location);
      expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
      expect(callback.searchParams.get("error")).toBe("invalid_request");
    }
  });

  it("refuses a redirect_uri that was not registered, without redirecting to it", async () => {
    const client = await registerClient(baseUrl());
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    const start = authorizeUrl(baseUrl(), client.body.client_id, {
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      redirect_uri: "http://evil.example/callback",
    });
    const response = await fetch(start, { redirect: "manual", headers: { cookie: jar.header() } });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("redirect_uri did not match");
  });

  it("refuses a code with the wrong verifier, and a code used twice", async () => {
    const client = await registerClient(baseUrl());
    const { code, verifier } = await authorize(baseUrl(), made.owner, client.body.client_id);
    const exchange = (codeVerifier: string) =>
      tokenRequest(baseUrl(), {
        grant_type: "authorization_code",
        code,
        code_verifier: codeVerifier,
        redirect_uri: REDIRECT_URI,
        client_id: client.body.client_id,
      });
    const wrong = await exchange(pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const second = await authorize(baseUrl(), made.owner, client.body.client_id);
    const good = await tokenRequest(baseUrl(), {
      grant_type: "authorization_code",
      code: second.code,
      code_verifier: second.verifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.body.client_id,
    });
    expect(good.status).toBe(200);
    const again = await tokenRequest(baseUrl(), {
      grant_type: "authorization_code",
      code: second.code,
      code_verifier: second.verifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.body.client_id,
    });
    expect(again.body.error).toBe("invalid_grant");
    expect(verifier).not.toBe(second.verifier);
  });

  it("refuses a revoked token, a token for another origin's endpoint, and any token off /api/mcp", async () => {
    const tokens = await tokensFor(baseUrl(), made.owner);
    const mcpCall = (url: string, token: string) =>
      fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await mcpCall(mcpUrl(), tokens.access_token)).status).toBe(200);
    // The same server reached by another name is another resource: the token's audience is this one.
    expect((await mcpCall(mcpUrl().replace("127.0.0.1", "localhost"), tokens.access_token)).status).toBe(401);
    expect((await call("GET", "/api/workspaces", { token: tokens.access_token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: tokens.access_token })).status).toBe(401);

    const revoked = await fetch(`${baseUrl()}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: tokens.clientId }),
    });
    expect(revoked.status).toBe(200);
    const after = await mcpCall(mcpUrl(), tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain("resource_metadata=");
  });

  it("refuses a token once its user is disabled", async () => {
    const person = await newUser();
    const tokens = await tokensFor(baseUrl(), person);
    const mcp = () =>
      fetch(mcpUrl(), {
        method: "POST",
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await mcp()).status).toBe(200);
    const disabled = await call("PATCH", `/api/users/${person.id}`, { token: await admin(), json: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect((await mcp()).status).toBe(401);
  });

  it("ends a client's access and its refresh token when the person's password changes", async () => {
    const person = await newUser();
    const tokens = await tokensFor(baseUrl(), person);
    const changed = await call("PATCH", `/api/users/${person.id}`, { token: await admin(), json: { password: "a-new-password-123" } });
    expect(changed.status).toBe(200);
    const mcp = await fetch(mcpUrl(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    const refreshed = await tokenRequest(baseUrl(), {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("gives a viewer's token the viewer's rights: reads, and no writes", async () => {
    const viewer = await newUser();
    const added = await call("POST", `/api/workspaces/${made.ws}/members`, {
      token: made.token,
      json: { username: viewer.username, role: "viewer" },
    });
    expect(added.status).toBe(201);
    const mcp = await connect((await tokensFor(baseUrl(), viewer)).access_token);
    expect(data(await tool(mcp, "list_tasks", { workspace_id: made.ws })).items.length).toBeGreaterThan(0);
    const write = await tool(mcp, "create_task", { workspace_id: made.ws, title: "viewer write" });
    expect(write.isError).toBe(true);
    expect(write.content[0].text).toMatch(/^Viewers can read this workspace but not change it/);
  });
});
