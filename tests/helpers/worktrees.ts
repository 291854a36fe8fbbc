import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { engineServer, finished, newStore, workspaceOn, type EngineServer } from "./engine";

// What the git worktree tests share (tests/api/worktrees.test.ts, tests/api/fix-conflicts-git.test.ts):
// a server whose agent is tests/fixtures/git-agent.mjs, bare repositories on disk as remotes, and git.

const GIT_AGENT = `${process.execPath} ${path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")}`;

export async function startWorktreeServer(label: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${label}-api-`)));
  const store = await newStore(label);
  const server = await engineServer(store, {
    AGENT_COMMAND: GIT_AGENT,
    AGENT_LOG_FLUSH_MS: "100",
    AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
    SCHEDULER_INTERVAL_MS: "200",
  });
  const { token, wsId } = await workspaceOn(server);
  return { store, server, token, wsId, root };
}

type Current = () => { server: EngineServer; token: string; wsId: string; root: string };

/** The calls those tests make, against the server `current` names once it has started. */
export function worktreeApi(current: Current) {
  const ws = (id = current().wsId) => `/api/workspaces/${id}`;
  return {
    ws,
    workdir: (taskId: string, id = current().wsId) => path.join(current().root, "work", id, taskId),
    async run(taskId: string, instructions: string, id = current().wsId) {
      const { server, token } = current();
      const started = await server.call("POST", `${ws(id)}/tasks/${taskId}/runs`, { token, json: { instructions } });
      expect(started.status).toBe(202);
      return finished(server.call, token, id, started.body.id);
    },
    async connect(remote: string, id = current().wsId, extra: Record<string, unknown> = {}) {
      const { server, token } = current();
      const connected = await server.call("PUT", `${ws(id)}/repository`, { token, json: { url: remote, ...extra } });
      expect(connected.status).toBe(200);
      return connected.body;
    },
    async otherUser(): Promise<string> {
      const { server, token } = current();
      const username = `outsider_${Date.now()}`;
      const created = await server.call("POST", "/api/users", { token, json: { username, password: "outsider-password-1" } });
      expect(created.status).toBe(201);
      const login = await server.call("POST", "/api/auth/login", { json: { username, password: "outsider-password-1" } });
      return login.body.access_token as string;
    },
    /** A bare repository with `files` on main; `more` may add branches through the work clone. */
    bareRemote(files: Record<string, string>, more?: (work: string) => void): string {
      const base = fs.mkdtempSync(path.join(current().root, "remote-"));
      const work = path.join(base, "work");
      const remote = path.join(base, "remote.git");
      execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
      execFileSync("git", ["init", "-q", "-b", "main", work]);
      git(work, "remote", "add", "origin", remote);
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), text);
      }
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", "seed");
      git(work, "push", "-q", "origin", "main");
      more?.(work);
      return remote;
    },
  };
}

export function commitFile(work: string, file: string, text: string) {
  fs.writeFileSync(path.join(work, file), text);
  git(work, "commit", "-q", "-am", `${file}: ${text.trim()}`);
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" }).trim();
}

export function gitBare(remote: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", remote, ...args], { encoding: "utf8" }).trim();
}
