import { afterAll, beforeAll, expect } from "vitest";
import { startFakeGithub, type FakeGithub } from "../fixtures/fake-github/server";
import { sendWebhook } from "../fixtures/fake-github/webhooks";
import { engineServer, newStore, workspaceOn, type EngineServer, type Store } from "./engine";

// The set-up of the GitHub webhook tests (tests/api/github-webhook*.test.ts): a server of the file's own
// whose GitHub is the fake, with a webhook secret; deliveries signed as GitHub signs them.

export const SECRET = "webhook-test-secret";

/** Starts the fake GitHub and a server using it before the file's tests, and stops both after them. */
export function githubWebhookServer(label: string) {
  const started = {} as { fake: FakeGithub; store: Store; server: EngineServer };
  let nextInstallation = 9100;

  beforeAll(async () => {
    started.fake = await startFakeGithub();
    started.store = await newStore(label);
    // No agent runs in these files (the automations that would start one are off): no runner child to start.
    started.server = await engineServer(started.store, { ...started.fake.env(SECRET), RUNNER_EMBEDDED: "false" }, label);
  }, 180_000);

  afterAll(async () => {
    await started.server?.stop();
    await started.store?.drop();
    await started.fake?.close();
  });

  /** An installation id no other test of the file uses. */
  const newInstallationId = () => nextInstallation++;

  /** A workspace connected to a repository of its own, through an installation of its own. */
  async function connected() {
    const { fake, server } = started;
    const { token, wsId } = await workspaceOn(server);
    const installationId = newInstallationId();
    const repo = `acme/widgets-${installationId}`;
    fake.addInstallation(installationId, "acme", [repo]);
    const put = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { installation_id: installationId, repo } });
    expect(put.status).toBe(200);
    const task = (id: string) => server.call("GET", `/api/workspaces/${wsId}/tasks/${id}`, { token }).then((r) => r.body);
    return { token, wsId, installationId, repo, task };
  }

  function send(event: string, payload: unknown, options: { deliveryId?: string; signature?: string | null } = {}) {
    return sendWebhook(`${started.server.url}/api/webhooks/github`, { event, payload, secret: SECRET, ...options });
  }

  return { started, connected, send, newInstallationId };
}
