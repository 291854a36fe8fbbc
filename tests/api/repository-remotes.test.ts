import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { startGitHttpServer } from "../fixtures/git-http-server";

// The repository setting is no network probe and uses no one's credentials but the workspace's
// (docs/SECURITY.md, R1–R6). The servers run with the server user's usual ambient credentials
// set up to be noticed: a ~/.gitconfig whose credential helper would answer (and logs), a
// GIT_SSH_COMMAND, GIT_ASKPASS and SSH_ASKPASS that log, an SSH agent socket. None may ever be used.

const SLOW = 120_000;
const TOKEN = "tok-0123456789-abcdef";

let ambient: string;
let log: string;
let guardedStore: Store;
let openStore: Store;
let guarded: EngineServer;
let open: EngineServer;
let git: Awaited<ReturnType<typeof startGitHttpServer>>;

function ambientCredentials(): Record<string, string> {
  ambient = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ambient-")));
  log = path.join(ambient, "used.log");
  const logger = (name: string) => {
    const file = path.join(ambient, name);
    fs.writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> '${log}'\necho username=ambient-user\necho password=${TOKEN}\n`, {
      mode: 0o755,
    });
    return file;
  };
  // The helper would hand git the very token the remote wants: only never asking it keeps it out.
  fs.writeFileSync(path.join(ambient, ".gitconfig"), `[credential]\n\thelper = ${logger("helper")}\n`);
  return {
    HOME: ambient,
    GIT_SSH_COMMAND: logger("ssh-command"),
    GIT_ASKPASS: logger("askpass"),
    SSH_ASKPASS: logger("ssh-askpass"),
    SSH_AUTH_SOCK: path.join(ambient, "agent.sock"),
  };
}

const used = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "");

beforeAll(async () => {
  // No agent runs here: no runner child to start on either server.
  const env = { ...ambientCredentials(), RUNNER_EMBEDDED: "false" };
  git = await startGitHttpServer({ token: TOKEN });
  [guardedStore, openStore] = await Promise.all([newStore("repo-guard"), newStore("repo-open")]);
  [guarded, open] = await Promise.all([
    engineServer(guardedStore, env, "repo-guard"),
    engineServer(openStore, { ...env, REPOSITORIES_ALLOW_PRIVATE_ADDRESSES: "true" }, "repo-open"),
  ]);
}, SLOW);

afterAll(async () => {
  await guarded?.stop();
  await open?.stop();
  await guardedStore?.drop();
  await openStore?.drop();
  await git?.stop();
  if (ambient) fs.rmSync(ambient, { recursive: true, force: true });
}, SLOW);

/** A non-admin user who owns a fresh workspace on `server`. */
async function ownerOn(server: EngineServer) {
  const { token: admin, wsId: adminWs } = await workspaceOn(server);
  const username = `owner-${Date.now()}-${Math.random().toString(16).slice(2, 6)}`;
  const created = await server.call("POST", "/api/users", { token: admin, json: { username, password: "owner-password-1" } });
  expect(created.status).toBe(201);
  const login = await server.call("POST", "/api/auth/login", { json: { username, password: "owner-password-1" } });
  const token = login.body.access_token as string;
  const ws = await server.call("POST", "/api/workspaces", { token, json: { name: "owned" } });
  const put = (json: unknown) => server.call("PUT", `/api/workspaces/${ws.body.id}/repository`, { token, json });
  const adminPut = (json: unknown) => server.call("PUT", `/api/workspaces/${adminWs}/repository`, { token: admin, json });
  return { token, put, adminPut, wsId: ws.body.id as string };
}

/** A socket on loopback that counts who connects to it. */
async function listener() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the repository URL", () => {
  it(
    "refuses loopback and private addresses, by literal or by name, without connecting",
    async () => {
      const owner = await ownerOn(guarded);
      const socket = await listener();
      try {
        for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "10.0.0.1", "169.254.169.254"]) {
          const res = await owner.put({ url: `http://${host}:${socket.port}/x.git` });
          expect(res.status, host).toBe(422);
          expect(res.body.detail[0].loc).toEqual(["body", "url"]);
          expect(res.body.detail[0].msg, host).toMatch(
            /^Refused: .+ resolves to .+ private, loopback or reserved address \(set REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true/,
          );
        }
        // An administrator's remote is checked too (only paths on the server's disk are theirs alone).
        for (const url of [`ssh://git@localhost:${socket.port}/x.git`, `git@127.0.0.1:x.git`]) {
          const admin = await owner.adminPut({ url });
          expect(admin.status, url).toBe(422);
          expect(admin.body.detail[0].msg, url).toMatch(/^Refused: .+REPOSITORIES_ALLOW_PRIVATE_ADDRESSES/);
        }
        expect(socket.connections()).toBe(0);
      } finally {
        await socket.stop();
      }
    },
    SLOW,
  );

  it(
    "refuses credentials in the URL, a leading '-', git:// and, for non-administrators, paths on the server",
    async () => {
      const owner = await ownerOn(open);
      const cases: [string, RegExp][] = [
        [`http://user:${TOKEN}@127.0.0.1:${git.port}/a.git`, /Credentials in the URL are refused/],
        [`https://${TOKEN}@example.com/a.git`, /Credentials in the URL are refused/],
        [`ssh://git:${TOKEN}@example.com/a.git`, /Credentials in the URL are refused/],
        ["-uoption@host:path", /must not start with '-'/],
        ["--upload-pack=touch /tmp/x", /must not start with '-'/],
        ["git://example.com/a.git", /git:\/\/ is neither authenticated nor encrypted/],
        ["ext::sh -c touch% /tmp/pwned", /A git remote/],
      ];
      for (const [url, message] of cases) {
        const res = await owner.put({ url });
        expect(res.status, url).toBe(422);
        expect(res.body.detail[0].msg, url).toMatch(message);
      }
      expect((await owner.put({ url: "/etc" })).status).toBe(403);
      expect((await owner.put({ url: "file:///etc" })).status).toBe(403);
      expect(git.seen.authorizations.some((header) => header?.includes(Buffer.from(`user:${TOKEN}`).toString("base64")))).toBe(false);
    },
    SLOW,
  );
});

describe("git against the remote", () => {
  it(
    "never uses the server's own credentials, and says why it could not read the repository in three words",
    async () => {
      const owner = await ownerOn(open);
      const url = git.addRepository("ambient");
      const denied = await owner.put({ url });
      expect(denied.status).toBe(422);
      expect(denied.body.detail[0]).toMatchObject({ loc: ["body", "url"], msg: "could not read the repository: authentication failed" });
      expect(used()).toBe("");
      const missing = await owner.put({ url: url.replace("ambient", "missing"), credential: { type: "access_token", token: TOKEN } });
      expect(missing.body.detail[0].msg).toBe("could not read the repository: not found");
      // An answer that is not git's: relayed in no words of its own.
      const socket = await listener();
      const unreachable = await owner.put({ url: `http://127.0.0.1:${socket.port}/x.git` });
      await socket.stop();
      expect(unreachable.body.detail[0].msg).toBe("could not read the repository: unreachable");
      const ssh = await owner.put({ url: `ssh://git@127.0.0.1:${git.port}/x.git` });
      expect(ssh.status).toBe(422);
      expect(ssh.body.detail[0].msg).toMatch(/^could not read the repository: (unreachable|authentication failed)$/);
      expect(used()).toBe("");
    },
    SLOW,
  );

  it(
    "reaches an authenticated remote with the workspace's stored token, which no GET returns",
    async () => {
      const owner = await ownerOn(open);
      const url = git.addRepository("stored");
      const before = git.seen.authorizations.length;
      const connected = await owner.put({ url, credential: { type: "access_token", token: TOKEN, username: "bot" } });
      expect(connected.status).toBe(200);
      expect(connected.body.credential).toMatchObject({ type: "access_token", username: "bot" });
      expect(Date.parse(connected.body.credential.set_at)).not.toBeNaN();
      const sent = git.seen.authorizations.slice(before);
      expect(sent).toContain(`Basic ${Buffer.from(`bot:${TOKEN}`).toString("base64")}`);

      // Kept when the URL stays on the same host (a change of branch or retention), written nowhere readable.
      const again = await owner.put({ url, worktree_retention_days: 3 });
      expect(again.status).toBe(200);
      expect(again.body.credential).toMatchObject({ type: "access_token", username: "bot" });
      const read = await open.call("GET", `/api/workspaces/${owner.wsId}/repository`, { token: owner.token });
      const spec = await open.call("GET", "/openapi.json");
      for (const body of [connected.body, again.body, read.body])
        expect(JSON.stringify(body)).not.toMatch(new RegExp(`${TOKEN}|${Buffer.from(`bot:${TOKEN}`).toString("base64")}`));
      expect(read.body.credential).toEqual(again.body.credential);
      expect(JSON.stringify(spec.body)).toContain("access_token");

      // A token only fits https remotes; null removes it.
      const wrong = await owner.put({ url: "git@example.com:a/b.git", credential: { type: "access_token", token: TOKEN } });
      expect(wrong.status).toBe(422);
      expect(wrong.body.detail[0].loc).toEqual(["body", "credential"]);
      const removed = await owner.put({ url, credential: null });
      expect(removed.status).toBe(422);
      expect(removed.body.detail[0].msg).toBe("could not read the repository: authentication failed");
      expect(used()).toBe("");
    },
    SLOW,
  );
});

describe("secrets at rest", () => {
  it(
    "stores the repository credential sealed",
    async () => {
      const owner = await ownerOn(open);
      const url = git.addRepository("sealed");
      expect((await owner.put({ url, credential: { type: "access_token", token: TOKEN } })).status).toBe(200);
      if (openStore.kind === "pglite") await open.stop();
      const [row] = await openStore.sql("SELECT credential_type, credential_sealed FROM workspace_repositories WHERE workspace_id = $1", [
        owner.wsId,
      ]);
      expect(row.credential_type).toBe("access_token");
      expect(String(row.credential_sealed)).toMatch(/^tbenc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
      expect(String(row.credential_sealed)).not.toContain(TOKEN);
    },
    SLOW,
  );
});
