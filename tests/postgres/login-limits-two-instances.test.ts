import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";

// Two app instances on one PostgreSQL database: the login limit is counted in the database
// (login_limits), so failed logins spread over both still meet 429 after 10 in all, not 10 each.

let store: Store;
const servers: EngineServer[] = [];

beforeAll(async () => {
  store = await newStore("login-pair");
  // No agent runs here: no runner child to start on either instance.
  servers.push(await engineServer(store, { RUNNER_EMBEDDED: "false" }, "login-a"));
  servers.push(await engineServer(store, { RUNNER_EMBEDDED: "false" }, "login-b"));
}, 180_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await store?.drop();
}, 120_000);

const attempt = (server: EngineServer, username: string) =>
  server.call("POST", "/api/auth/login", { json: { username, password: "wrong password" } });

describe("login limits across instances", () => {
  it("refuses the 11th failed login of a username and address, whichever instance the attempts reached", async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt(servers[i % 2], "admin")).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const refused = await attempt(servers[0], "admin");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many failed login attempts; try again in \d+ s$/);
  });

  it("counts parallel attempts on both instances exactly: 40 guesses, 10 of them checked", async () => {
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(servers[i % 2], "ghost_user")));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it("keeps the counts in the database, as hashes", async () => {
    const rows = await store.sql("SELECT key, points FROM login_limits ORDER BY key");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => !String(row.key).includes("admin") && !String(row.key).includes("127.0.0.1"))).toBe(true);
    expect(Math.max(...rows.map((row) => Number(row.points)))).toBeGreaterThanOrEqual(10);
  });
});
