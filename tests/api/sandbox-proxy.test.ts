import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, client, newUser, newWorkspace } from "../helpers/api";
import { finished, newTask } from "../helpers/engine";

// The sandbox's proxy in a real run (issue #35, finding 8): a command agent under bubblewrap asks
// the proxy for a listed name that resolves to a loopback address (`localhost`, the one such name
// every machine has) and is refused with the reason; the same server listed by its address stays
// reachable. Before the address check, the proxy connected the first just as the second.
// lib/sandbox/network.test.ts covers the other forms (metadata, private, IPv6) with a fake DNS.

const AGENT = path.resolve(import.meta.dirname, "../fixtures/proxy-agent.mjs");

// On the shared server: the agent is this workspace's own profile, its network list the profile's
// (a profile's command is an administrator's to choose).
let made: { token: string; ws: string };
let local: http.Server;
let port: number;

beforeAll(async () => {
  local = http.createServer((_request, response) => response.end("local server reached\n"));
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  port = (local.address() as { port: number }).port;
  const owner = await newUser({ isAdmin: true });
  made = { token: owner.token, ws: (await newWorkspace(owner.token)).id };
});

afterAll(() => {
  local?.close();
});

describe("the sandbox's proxy in a real run", () => {
  it("refuses a listed name that resolves to loopback, and reaches the same server listed by its address", async () => {
    const server = { call: client(baseUrl()) };
    const { token, ws: wsId } = made;
    const ws = `/api/workspaces/${wsId}`;
    const profile = await server.call("POST", `${ws}/agents`, {
      token,
      json: {
        name: "proxy",
        kind: "command",
        command: process.execPath,
        args: [AGENT],
        network_allow: [`localhost:${port + 1}`, `127.0.0.1:${port}`],
      },
    });
    expect(profile.status).toBe(201);
    const task = await newTask(server.call, token, wsId, { title: "Through the proxy" });
    // Listed by name only, on a port of its own: whatever localhost resolves to here (127.0.0.1,
    // ::1 or both), the address check refuses it before any connection.
    const started = await server.call("POST", `${ws}/tasks/${task.id}/runs`, {
      token,
      json: { instructions: JSON.stringify([`localhost:${port + 1}`, `127.0.0.1:${port}`]), agent_id: profile.body.id },
    });
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    const lines = (done.report as string).trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^localhost:${port + 1} no HTTP/1.1 403 Forbidden \\| .*Refused: localhost resolves to (127\\.0\\.0\\.1|::1)`),
    );
    expect(lines[1]).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} yes HTTP/1.1 200 Connection Established`));
  }, 240_000);
});
