import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { git, gitBare } from "../helpers/worktrees";

// Issue #35, findings 1 and 3, with a real command agent under the real sandbox
// (tests/fixtures/git-escape-agent.mjs). Run 1 of a task plants a `.git` whose gitdir is DATA_DIR
// and, in a repository, a `commondir` naming DATA_DIR: the files that once decided the next run's
// mounts. Run 2 of the same task, and a run of another task, then try to read DATA_DIR's auth secret
// and write there. Another task's agent moves a branch that is not its own and deletes the objects
// every task shares. Under the sandbox each attempt fails and the board's clone keeps the first
// task's branch at the commit its run recorded; with AGENT_SANDBOX=off the same attempts get
// through, which shows each one is real.

const AGENT = path.resolve(import.meta.dirname, "../fixtures/git-escape-agent.mjs");

type World = {
  store: Store;
  server: EngineServer;
  token: string;
  wsId: string;
  repoWsId: string;
  profileOf: Record<string, string>;
  /** The bare remote's directory, beside the store's: removed with it. */
  remoteBase: string;
};

async function world(label: string, env: Record<string, string>): Promise<World> {
  const store = await newStore(label);
  const server = await engineServer(store, { AGENT_LOG_FLUSH_MS: "100", ...env }, label);
  const { token, wsId } = await workspaceOn(server);
  const created = await server.call("POST", "/api/workspaces", { token, json: { name: `${label} with a repository` } });
  expect(created.status).toBe(201);
  const repoWsId = created.body.id as string;
  const remoteBase = fs.mkdtempSync(`${store.dataDir}-remote-`);
  const remote = bareRemote(remoteBase);
  expect((await server.call("PUT", `/api/workspaces/${repoWsId}/repository`, { token, json: { url: remote } })).status).toBe(200);
  const profileOf: Record<string, string> = {};
  for (const id of [wsId, repoWsId]) {
    const profile = await server.call("POST", `/api/workspaces/${id}/agents`, {
      token,
      json: { name: "git-escape", kind: "command", command: process.execPath, args: [AGENT] },
    });
    expect(profile.status).toBe(201);
    profileOf[id] = profile.body.id;
  }
  return { store, server, token, wsId, repoWsId, profileOf, remoteBase };
}

/** A bare repository with one commit on main, in `base`: beside (never inside) the server's data. */
function bareRemote(base: string): string {
  const remote = path.join(base, "remote.git");
  const work = path.join(base, "work");
  gitBare(remote, "init", "-q", "--bare", "-b", "main");
  fs.mkdirSync(work);
  git(work, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(work, "README.md"), "hello\n");
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "seed");
  git(work, "push", "-q", remote, "main");
  return remote;
}

/** One run of the agent with `input`; the finished execution and its report's lines by attempt. */
async function run(w: World, wsId: string, taskId: string, input: Record<string, unknown>) {
  const started = await w.server.call("POST", `/api/workspaces/${wsId}/tasks/${taskId}/runs`, {
    token: w.token,
    json: { instructions: JSON.stringify(input), agent_id: w.profileOf[wsId] },
  });
  expect(started.status).toBe(202);
  const done = await finished(w.server.call, w.token, wsId, started.body.id, 60_000);
  const report = String(done.report ?? "");
  const lines = new Map(
    report
      .trim()
      .split("\n")
      .map((line) => [line.split(" ")[0], line] as const),
  );
  return { done, lines, report };
}

/** Every attempt of the findings 1 and 3; what each run reported. */
async function attempts(w: World) {
  const dataDir = w.store.dataDir;
  const scratch = await newTask(w.server.call, w.token, w.wsId, { title: "Scratch" });
  const scratchOther = await newTask(w.server.call, w.token, w.wsId, { title: "Another scratch" });
  const repo = await newTask(w.server.call, w.token, w.repoWsId, { title: "Planted" });
  const repoOther = await newTask(w.server.call, w.token, w.repoWsId, { title: "Planted elsewhere" });
  const four = await newTask(w.server.call, w.token, w.repoWsId, { title: "Four" });
  const five = await newTask(w.server.call, w.token, w.repoWsId, { title: "Five" });

  await run(w, w.wsId, scratch.id, { plant: dataDir });
  const scratchAgain = await run(w, w.wsId, scratch.id, { read: dataDir });
  const scratchElsewhere = await run(w, w.wsId, scratchOther.id, { read: dataDir });
  const planted = await run(w, w.repoWsId, repo.id, { plant: dataDir });
  const repoAgain = await run(w, w.repoWsId, repo.id, { read: dataDir });
  const repoElsewhere = await run(w, w.repoWsId, repoOther.id, { read: dataDir });

  const fourRun = await run(w, w.repoWsId, four.id, { work: "four.txt" });
  const fourTask = (await w.server.call("GET", `/api/workspaces/${w.repoWsId}/tasks/${four.id}`, { token: w.token })).body;
  const fiveRun = await run(w, w.repoWsId, five.id, { otherBranch: fourTask.branch });
  const clone = path.join(dataDir, "repos", w.repoWsId);
  const fourInClone = (() => {
    try {
      return gitBare(path.join(clone, ".git"), "rev-parse", `refs/heads/${fourTask.branch}^{commit}`);
    } catch {
      return "unreadable";
    }
  })();
  const escaped = fs.readdirSync(dataDir).some((name) => name.startsWith("escape-"));
  const fourRecorded = fourTask.task_runs[0].commit_sha as string;
  return { scratchAgain, scratchElsewhere, planted, repoAgain, repoElsewhere, fourRun, fiveRun, fourInClone, fourRecorded, escaped };
}

const worlds: World[] = [];
afterAll(async () => {
  for (const w of worlds) {
    await w.server.stop();
    await w.store.drop();
    fs.rmSync(w.remoteBase, { recursive: true, force: true });
  }
});

describe("files an agent writes never decide the next run's sandbox, and one task's agent never moves another's branch", () => {
  let sandboxed: Awaited<ReturnType<typeof attempts>>;
  beforeAll(async () => {
    const w = await world("git-escape", {});
    worlds.push(w);
    sandboxed = await attempts(w);
  }, 240_000);

  it("a planted .git or commondir gives the next run of the task, or another task's, nothing of the host", () => {
    const { scratchAgain, scratchElsewhere, planted, repoAgain, repoElsewhere, escaped } = sandboxed;
    expect(planted.lines.get("plant-commondir"), planted.report).toMatch(/^plant-commondir yes /);
    for (const attempt of [scratchAgain, scratchElsewhere, repoAgain, repoElsewhere]) {
      expect(attempt.done.status, JSON.stringify(attempt.done)).toBe("succeeded");
      expect(attempt.lines.get("read-host"), attempt.report).toMatch(/^read-host no /);
    }
    // A write may land in the sandbox's own /tmp (DATA_DIR lies under /tmp in tests): never in DATA_DIR.
    expect(escaped).toBe(false);
  });

  it("refuses git after the run that planted them, puts them back before the next, and says so in its log", async () => {
    expect(sandboxed.planted.done.status).toBe("failed");
    expect(sandboxed.planted.done.error_message).toMatch(/gained or changed a commondir file/);
    const w = worlds[0];
    const log = await w.server.call("GET", `/api/workspaces/${w.repoWsId}/executions/${sandboxed.repoAgain.done.id}/log`, {
      token: w.token,
    });
    expect(JSON.stringify(log.body)).toContain("The worktree's .git had been changed by an earlier run");
  });

  it("keeps another task's branch at the commit its run recorded: update-ref stays in the agent's own repository, shared objects are read-only", () => {
    const { fourRun, fiveRun, fourInClone, fourRecorded } = sandboxed;
    expect(fourRun.done.status).toBe("succeeded");
    expect(fiveRun.done.status, JSON.stringify(fiveRun.done)).toBe("succeeded");
    // The agent did move the ref, in its own repository, and could not delete what the others share.
    expect(fiveRun.lines.get("update-ref"), fiveRun.report).toMatch(/^update-ref yes /);
    expect(fiveRun.lines.get("delete-shared-objects"), fiveRun.report).toMatch(/^delete-shared-objects no EROFS/);
    expect(fourRecorded).toMatch(/^[0-9a-f]{40}$/);
    expect(fourInClone).toBe(fourRecorded);
  });
});

describe("with AGENT_SANDBOX=off", () => {
  it("the same attempts get through: each of them is real", async () => {
    const w = await world("git-escape-off", { AGENT_SANDBOX: "off" });
    worlds.push(w);
    const result = await attempts(w);
    expect(result.scratchAgain.lines.get("read-host"), result.scratchAgain.report).toMatch(/^read-host yes /);
    expect(result.repoAgain.lines.get("read-host"), result.repoAgain.report).toMatch(/^read-host yes /);
    expect(result.escaped).toBe(true);
    expect(result.fiveRun.lines.get("delete-shared-objects"), result.fiveRun.report).toMatch(/^delete-shared-objects yes /);
  }, 240_000);
});
