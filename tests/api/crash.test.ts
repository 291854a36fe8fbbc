import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/server.mjs";
import { root } from "../../scripts/lib/build-state.mjs";
import { client } from "../helpers/api";
import { engineServer, newStore, newTask, workspaceOn, type Store } from "../helpers/engine";

// kill -9 of the server, then a restart on the same data (PGlite: the same DATA_DIR; PostgreSQL:
// the same database): the restart must just work, and every write the killed server acknowledged
// must be there.

const ADMIN = { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "engine-admin-password" };
// No agent runs here: no runner child to start, nor to leave behind when a server is killed.
const ENV = { ...ADMIN, RUNNER_EMBEDDED: "false" };
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("a restart right after kill -9", () => {
  it("serves at once on the same data while the killed server is still a zombie", async () => {
    const store = await tracked(newStore("crash-zombie"));
    // Under `npm start` the killed server stays a zombie until its parent gets round to reaping it
    // (~2 s seen under load). A parent that never reaps makes that window as long as the test needs.
    const first = await startUnderNonReapingParent(store);
    cleanups.push(first.stop);
    const call = client(first.url);
    const { token, wsId } = await workspaceOn({ call });
    const task = await newTask(call, token, wsId, { title: "written before the crash" });

    process.kill(first.pid, "SIGKILL");
    await waitFor(() => processState(first.pid) === "Z", "the killed server to become a zombie");

    const second = await tracked(engineServer(store, ENV, "crash-zombie-restart"));
    const read = await second.call("GET", `/api/workspaces/${wsId}/tasks/${task.id}`, { token: await adminToken(second) });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe("written before the crash");
    expect(processState(first.pid)).toBe("Z"); // the restart really overlapped the zombie
  }, 180_000);
});

describe("50 concurrent writers and a kill -9 midway", () => {
  it("loses no acknowledged write", async () => {
    const store = await tracked(newStore("crash-writes"));
    const first = await tracked(engineServer(store, ENV, "crash-writes"));
    const { token, wsId } = await workspaceOn(first);

    // Each writer creates a task and then renames it, over and over, until the server dies. A title
    // carries its version, so a read-back can tell an acknowledged rename from an older one.
    const figures = { attempted: 0, acknowledged: 0, lost: 0, serverErrors: 0 };
    const tasks = new Map<string, { acknowledged: number }>();
    let killed = false;
    const write = async (method: string, urlPath: string, json: Record<string, unknown>) => {
      figures.attempted++;
      try {
        const response = await first.call(method, urlPath, { token, json });
        if (response.status >= 500) figures.serverErrors++;
        if (response.status >= 200 && response.status < 300) {
          figures.acknowledged++;
          return response.body;
        }
      } catch {
        // the connection died with the server: not acknowledged
      }
      return undefined;
    };
    const writer = async (w: number) => {
      for (let n = 0; !killed; n++) {
        const created = await write("POST", `/api/workspaces/${wsId}/tasks`, { title: `w${w}-t${n} v0`, status: "todo" });
        if (!created) continue;
        const entry = { acknowledged: 0 };
        tasks.set(created.id, entry);
        for (let version = 1; version <= 3 && !killed; version++) {
          const renamed = await write("PATCH", `/api/workspaces/${wsId}/tasks/${created.id}`, { title: `w${w}-t${n} v${version}` });
          if (renamed) entry.acknowledged = version;
        }
      }
    };
    const writers = Array.from({ length: 50 }, (_, w) => writer(w));
    // Midway: once 300 writes are acknowledged, or sooner on a machine too busy for that (50 writers
    // keep 50 writes in flight either way).
    const began = Date.now();
    await waitFor(
      () => figures.acknowledged >= 300 || (figures.acknowledged >= 50 && Date.now() - began > 20_000),
      "50 acknowledged writes",
      120_000,
    );
    first.child.kill("SIGKILL");
    killed = true;
    await Promise.all(writers);

    const second = await tracked(engineServer(store, ENV, "crash-writes-restart"));
    const fresh = await adminToken(second);
    for (const [id, entry] of tasks) {
      const read = await second.call("GET", `/api/workspaces/${wsId}/tasks/${id}`, { token: fresh });
      if (read.status >= 500) figures.serverErrors++;
      // An unacknowledged later rename may or may not have landed; an acknowledged one must have.
      const version = read.status === 200 ? Number(/ v(\d+)$/.exec(read.body.title)?.[1]) : -1;
      if (!(version >= entry.acknowledged)) figures.lost++;
    }
    console.log(
      `[crash] ${store.kind}: ${figures.attempted} writes attempted by 50 writers, ${figures.acknowledged} acknowledged, ` +
        `${figures.lost} acknowledged lost after kill -9 and restart, ${figures.serverErrors} answered 5xx`,
    );
    expect(tasks.size).toBeGreaterThan(0);
    expect(figures.lost).toBe(0);
    expect(figures.serverErrors).toBe(0);
  }, 400_000);
});

async function tracked<T extends { stop?: () => Promise<unknown>; drop?: () => Promise<unknown> }>(pending: Promise<T>): Promise<T> {
  const value = await pending;
  cleanups.push(async () => {
    await value.stop?.();
    await value.drop?.();
  });
  return value;
}

/**
 * `next start` launched by a shell that then becomes `sleep`: the server's parent never waits for
 * it, so once killed it stays a zombie (where a Node parent such as startServer's would reap it).
 */
async function startUnderNonReapingParent(store: Store) {
  const port = await freePort();
  const parent: ChildProcess = spawn(
    "/bin/sh",
    [
      "-c",
      '"$0" "$@" & exec sleep 600',
      process.execPath,
      // The options every other test server gets (scripts/lib/test-node-args.mjs).
      ...(process.env.TASKBOARD_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      path.join(root, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      `${port}`,
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        ...ENV,
        NODE_ENV: "production",
        DATA_DIR: store.dataDir,
        DATABASE_URL: store.databaseUrl ?? "",
        PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  parent.stdout!.on("data", (chunk) => output.push(String(chunk)));
  parent.stderr!.on("data", (chunk) => output.push(String(chunk)));
  let pid = 0;
  await waitFor(() => {
    pid = Number(readOrEmpty(`/proc/${parent.pid}/task/${parent.pid}/children`).trim().split(" ")[0]);
    return pid > 0;
  }, "the server process");
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true,
    "the server to be healthy",
    60_000,
    () => output.join(""),
  );
  return {
    url,
    pid,
    async stop() {
      if (processState(pid) !== null && processState(pid) !== "Z") process.kill(pid, "SIGKILL");
      parent.kill("SIGKILL");
    },
  };
}

async function adminToken(server: { call: ReturnType<typeof client> }): Promise<string> {
  const login = await server.call("POST", "/api/auth/login", { json: { username: ADMIN.ADMIN_USERNAME, password: ADMIN.ADMIN_PASSWORD } });
  expect(login.status).toBe(200);
  return login.body.access_token;
}

function processState(pid: number): string | null {
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  return stat ? stat.slice(stat.lastIndexOf(")") + 2)[0] : null;
}

function readOrEmpty(file: string) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000, detail = () => "") {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
