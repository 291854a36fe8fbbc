import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { engineServer, newStore, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { openStream } from "../helpers/sse";

// A member removed from a workspace loses its open event streams within one heartbeat. The
// membership row is deleted directly (there is no removal route yet), which is why this runs on
// PostgreSQL only: a PGlite directory cannot be opened while its server holds it.

const HEARTBEAT_S = 1;
let store: Store;
let server: EngineServer;
afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

describe("revocation reaches open streams", () => {
  it("removing a member closes their stream of that workspace within one heartbeat", async () => {
    store = await newStore("member-removal");
    server = await engineServer(store, { EVENTS_HEARTBEAT_SECONDS: String(HEARTBEAT_S) }, "member-removal");
    const { token: admin, wsId } = await workspaceOn(server);
    const username = `u_${crypto.randomBytes(4).toString("hex")}`;
    const password = `pw-${crypto.randomBytes(6).toString("hex")}`;
    const user = await server.call("POST", "/api/users", { token: admin, json: { username, password } });
    expect((await server.call("POST", `/api/workspaces/${wsId}/members`, { token: admin, json: { username } })).status).toBe(201);
    const token = (await server.call("POST", "/api/auth/login", { json: { username, password } })).body.access_token as string;

    const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    let open = true;
    void stream.ended.then(() => (open = false));
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_S * 1500));
    expect(open).toBe(true);

    await store.sql("DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2", [wsId, user.body.id]);
    await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, HEARTBEAT_S * 2000 + 1000))]);
    stream.close();
    expect(open, "stream still open after the member was removed").toBe(false);
    expect((await server.call("GET", `/api/workspaces/${wsId}/events`, { token })).status).toBe(404);
  });
});
