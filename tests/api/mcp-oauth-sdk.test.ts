import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrl, call, userWithWorkspace } from "../helpers/api";
import { signIn } from "../helpers/browser-session";
import { data, tool } from "../helpers/mcp";
import { decide, follow } from "../helpers/oauth";

// The official MCP SDK's client OAuth (what MCP clients use: discovery from the 401, registration,
// PKCE, the code exchange, refresh) against /api/mcp, with the person's part (sign-in, Allow) played
// over HTTP as their browser would. Shared server.

const made = userWithWorkspace();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
});

/** An OAuthClientProvider that keeps everything in memory and records where it was sent to sign in. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = "http://127.0.0.1:9/sdk-callback";
  get clientMetadata() {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connect(provider: MemoryProvider) {
  const client = new Client({ name: "taskboard-oauth-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { authProvider: provider });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

describe("MCP OAuth with the SDK's client", () => {
  it("discovers, registers, sends the person to sign in, exchanges the code and lists tasks", async () => {
    const task = await call("POST", `/api/workspaces/${made.ws}/tasks`, { token: made.token, json: { title: "Listed by the SDK" } });
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { authProvider: provider });
    const refused = await new Client({ name: "t", version: "1" }).connect(first).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toEqual(expect.any(String));
    const authorization = provider.authorizationUrl!;
    expect(authorization.pathname).toBe("/oauth/authorize");
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("resource")).toBe(`${baseUrl()}/api/mcp`);

    // The person, in their browser: signed in, the consent page, Allow, back to the client.
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    const consent = await follow(baseUrl(), authorization.href, jar);
    const answer = await decide(baseUrl(), consent.location, jar, "allow");
    const back = new URL((await follow(baseUrl(), new URL(answer.body.location, baseUrl()).href, jar)).location);
    expect(back.origin + back.pathname).toBe(provider.redirectUrl);
    await first.finishAuth(back.searchParams.get("code")!);
    expect(provider.saved).toMatchObject({ token_type: expect.stringMatching(/bearer/i), refresh_token: expect.any(String) });

    const { client } = await connect(provider);
    // A stateless server whose lists never change says so (no listChanged it could never send).
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    const listed = data(await tool(client, "list_tasks", { workspace_id: made.ws }));
    expect(listed.items.map((item: { id: string }) => item.id)).toContain(task.body.id);

    // An access token the server no longer accepts: the SDK refreshes with its refresh token and carries on.
    const refreshBefore = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: "expired-or-revoked" };
    const again = await connect(provider);
    expect(data(await tool(again.client, "list_workspaces", {})).workspaces).toEqual([expect.objectContaining({ id: made.ws })]);
    expect(provider.saved.access_token).not.toBe("expired-or-revoked");
    expect(provider.saved.refresh_token).not.toBe(refreshBefore);
  });
});
