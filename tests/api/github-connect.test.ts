import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInstallState } from "@/lib/github/client/install-state";
import { engineServer, eventually, workspaceOn, type EngineServer, type Store, newStore } from "../helpers/engine";
import { startFakeGithub, type FakeGithub } from "../fixtures/fake-github/server";
import { examplePayload, pullRequestPayload, sendWebhook } from "../fixtures/fake-github/webhooks";

// Connect GitHub against a server whose GitHub is the fake: the App requests user authorization
// during installation, so the callback carries a code; the fake trades it for a user token and
// answers GET /user/installations for that user. An installation is recorded only when GitHub lists
// it there; an owner who is not a server administrator cannot name one with PUT …/codehost.

const SECRET = "connect-webhook-secret";
const AUTH_SECRET = "connect-test-auth-secret-0123456789abcdef";
// No agent runs here (the automations that would start one are off): no runner child to start.
const NO_RUNNER = { RUNNER_EMBEDDED: "false" };
let fake: FakeGithub;
let store: Store;
let server: EngineServer;
let nextInstallation = 9600;

beforeAll(async () => {
  fake = await startFakeGithub();
  store = await newStore("github-connect");
  server = await engineServer(store, { ...fake.env(SECRET), AUTH_SECRET, ...NO_RUNNER }, "github-connect");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await fake?.close();
});

/** A user who is not a server administrator, signed in, owning a workspace of their own. */
async function owner() {
  const { token: admin } = await workspaceOn(server);
  const username = `owner_${Date.now()}_${Math.random().toString(36).slice(2, 7)}`;
  const created = await server.call("POST", "/api/users", { token: admin, json: { username, password: "owner-password-1" } });
  expect(created.status).toBe(201);
  const token = (await server.call("POST", "/api/auth/login", { json: { username, password: "owner-password-1" } })).body.access_token;
  const ws = await server.call("POST", "/api/workspaces", { token, json: { name: `ws-${username}` } });
  return { token: token as string, userId: created.body.id as string, username, wsId: ws.body.id as string };
}

function installation(repositories: string[]) {
  const id = nextInstallation++;
  fake.addInstallation(id, "acme", repositories);
  return id;
}

/** GET the callback as GitHub's redirect would reach it, without following the board's redirect. */
async function callback(token: string, query: Record<string, string>) {
  const response = await fetch(`${server.url}/api/codehost/github/callback?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: "manual",
  });
  const text = await response.text();
  return { status: response.status, location: response.headers.get("location"), detail: text ? JSON.parse(text).detail : undefined };
}

async function start(token: string, wsId: string): Promise<string> {
  const started = await server.call("POST", `/api/workspaces/${wsId}/codehost/github/install`, { token });
  expect(started.status).toBe(200);
  return started.body.state;
}

const statusOf = async (token: string, wsId: string) =>
  (await server.call("GET", `/api/workspaces/${wsId}/codehost/status`, { token })).body;
const repositoriesOf = (token: string, wsId: string) =>
  server.call("GET", `/api/workspaces/${wsId}/codehost/github/repositories`, { token });

describe("Connect GitHub", () => {
  it("records the installation when GitHub lists it among the code's user's; the owner then picks one of its repositories", async () => {
    const { token, wsId } = await owner();
    const id = installation(["acme/api", "acme/web"]);
    const state = await start(token, wsId);
    expect((await repositoriesOf(token, wsId)).status).toBe(409);

    const code = fake.authorizationCode([id]);
    const back = await callback(token, { code, installation_id: String(id), setup_action: "install", state });
    expect(back).toMatchObject({ status: 303, location: `/w/${wsId}/settings?github=installed` });
    const repositories = await repositoriesOf(token, wsId);
    expect(repositories.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual(["acme/api", "acme/web"]);

    const elsewhere = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { repo: "victim-org/secret" } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.detail).toBe("victim-org/secret is not among the repositories the GitHub installation can access");
    const foreign = installation(["victim-org/secret"]);
    const named = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, {
      token,
      json: { installation_id: foreign, repo: "victim-org/secret" },
    });
    expect(named.status).toBe(403);
    expect(named.body.detail).toMatch(/^Only a server administrator may name a GitHub App installation directly/);

    const picked = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { repo: "acme/web" } });
    expect(picked.status).toBe(200);
    expect(picked.body).toEqual({ connected: true, installation_id: id, repo: "acme/web", app_configured: true, oauth_configured: true });

    // A code is good once, as GitHub's.
    const replayed = await callback(token, { code, installation_id: String(id), state });
    expect(replayed.status).toBe(400);
    expect(replayed.detail).toMatch(
      /^GitHub did not accept the authorization from the installation \(The code passed is incorrect or expired/,
    );
  });

  it("refuses in words, recording nothing, when GitHub does not list the installation among the user's", async () => {
    const { token, wsId } = await owner();
    const victims = installation(["victim-org/secret"]);
    const own = installation(["acme/mine"]);
    const state = await start(token, wsId);
    const back = await callback(token, { code: fake.authorizationCode([own]), installation_id: String(victims), state });
    expect(back.status).toBe(403);
    expect(back.detail).toMatch(
      new RegExp(`^GitHub does not list installation ${victims} among the installations of this App your GitHub account can access`),
    );
    expect((await repositoriesOf(token, wsId)).status).toBe(409);
    expect(await statusOf(token, wsId)).toMatchObject({ connected: false, installation_id: null, repo: null });
  });

  it("refuses a state made for another user or for a workspace the user does not own, a tampered state and a missing code", async () => {
    const alice = await owner();
    const bob = await owner();
    const id = installation(["acme/api"]);
    const aliceState = await start(alice.token, alice.wsId);

    const stolen = await callback(bob.token, { code: fake.authorizationCode([id]), installation_id: String(id), state: aliceState });
    expect(stolen).toMatchObject({ status: 403, detail: "The state was issued to another user" });

    // Alice is a member of Bob's workspace, not an owner: a state naming it (signed with the server's key) is refused.
    const added = await server.call("POST", `/api/workspaces/${bob.wsId}/members`, {
      token: bob.token,
      json: { username: alice.username, role: "member" },
    });
    expect(added.status).toBe(201);
    const forBob = signInstallState({ workspaceId: bob.wsId, userId: alice.userId }, AUTH_SECRET);
    const notOwner = await callback(alice.token, { code: fake.authorizationCode([id]), installation_id: String(id), state: forBob });
    expect(notOwner).toMatchObject({ status: 403, detail: "Only workspace owners may do this" });

    const [body, signature] = aliceState.split(".");
    const tampered = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${signature}`;
    const forged = await callback(alice.token, { code: fake.authorizationCode([id]), installation_id: String(id), state: tampered });
    expect(forged).toMatchObject({ status: 400, detail: "The state was not issued by this server" });
    const codeless = await callback(alice.token, { installation_id: String(id), state: aliceState });
    expect(codeless.status).toBe(400);
    expect(codeless.detail).toMatch(
      /^GitHub sent no authorization code: the App must have "Request user authorization \(OAuth\) during installation"/,
    );
    expect((await callback(alice.token, { installation_id: "abc", state: aliceState })).status).toBe(422);

    for (const { token, wsId } of [alice, bob]) expect((await repositoriesOf(token, wsId)).status).toBe(409);
  });

  it("lets only owners start, and never agent tokens", async () => {
    const { token, wsId } = await owner();
    const member = await owner();
    await server.call("POST", `/api/workspaces/${wsId}/members`, { token, json: { username: member.username, role: "member" } });
    const refused = await server.call("POST", `/api/workspaces/${wsId}/codehost/github/install`, { token: member.token });
    expect(refused.status).toBe(403);
  });
});

describe("GET …/codehost/github/deliveries", () => {
  it("lists the deliveries of the workspace's own repository, not the rest of its installation's", async () => {
    const { token: admin } = await workspaceOn(server);
    const id = installation(["acme/ours", "acme/theirs"]);
    const [ours, theirs] = await Promise.all([workspaceOn(server), workspaceOn(server)]);
    for (const [ws, repo] of [
      [ours, "acme/ours"],
      [theirs, "acme/theirs"],
    ] as const) {
      const put = await server.call("PUT", `/api/workspaces/${ws.wsId}/codehost`, { token: admin, json: { installation_id: id, repo } });
      expect(put.status).toBe(200);
    }
    const send = (event: string, payload: unknown) => sendWebhook(`${server.url}/api/webhooks/github`, { event, payload, secret: SECRET });
    const mine = await send(
      "pull_request",
      pullRequestPayload(fake.url, "opened", "acme/ours", id, fake.addPull("acme/ours", { head: "a" })),
    );
    const other = await send(
      "pull_request",
      pullRequestPayload(fake.url, "opened", "acme/theirs", id, fake.addPull("acme/theirs", { head: "b" })),
    );
    const added = examplePayload("installation_repositories", "added");
    added.installation.id = id;
    const installationEvent = await send("installation_repositories", added);
    for (const sent of [mine, other, installationEvent]) expect(sent.response.status).toBe(202);

    const listed = await eventually(async () => {
      const page = await server.call("GET", `/api/workspaces/${ours.wsId}/codehost/github/deliveries?limit=50`, { token: admin });
      return page.body.items.length > 0 ? page.body.items.map((item: { delivery_id: string }) => item.delivery_id) : undefined;
    });
    expect(listed).toEqual([mine.deliveryId]);
  });
});

describe("without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET", () => {
  it("Connect GitHub says in words that they are needed, and the status tells Settings", async () => {
    const bare = await newStore("github-connect-no-oauth");
    const env: Record<string, string> = { ...fake.env(SECRET), ...NO_RUNNER };
    delete env.GITHUB_CLIENT_ID;
    delete env.GITHUB_CLIENT_SECRET;
    const plain = await engineServer(bare, env, "github-connect-no-oauth");
    try {
      const { token, wsId } = await workspaceOn(plain);
      const started = await plain.call("POST", `/api/workspaces/${wsId}/codehost/github/install`, { token });
      expect(started.status).toBe(409);
      expect(started.body.detail).toMatch(
        /needs the App's client id and secret on the server \(GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET\)/,
      );
      const status = await plain.call("GET", `/api/workspaces/${wsId}/codehost/status`, { token });
      expect(status.body).toMatchObject({ connected: false, app_configured: true, oauth_configured: false });
    } finally {
      await plain.stop();
      await bare.drop();
    }
  }, 180_000);
});
