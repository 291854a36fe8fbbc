import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { dataDir } from "@/lib/config";
import { hashSecret, newRunnerSecret } from "@/lib/auth/tokens";
import { SERVER_SECRET_NAME } from "@/lib/crypto/server-secret-name";
import { apiUrl, maxConcurrent } from "@/lib/platform/runner-config";
import { embeddedRegistrationFile, readEmbeddedRegistration, type EmbeddedRegistration } from "@/lib/platform/embedded-registration";

// The embedded default (issue #23): `npm start` also starts one runner as a child process, speaking
// the same protocol over loopback as any runner, with a token this server registered for itself.
// The token is kept in DATA_DIR (which no agent sees), so a runner that outlived a crashed server
// keeps working with the next one: it finishes and reports its runs, then exits (lib/runner/main.ts).
// RUNNER_EMBEDDED=false: no child; only runner processes started elsewhere run agents.

export async function startEmbeddedRunner(db: Db): Promise<ChildProcess> {
  const registration = await register(db);
  const root = /*turbopackIgnore: true*/ process.cwd();
  // The token goes through a pipe (fd 3), not the environment or the command line, which any
  // process of this user could read in /proc (an unsandboxed agent under AGENT_SANDBOX=off).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib", "runner", "main.ts"), "--embedded", "--token-fd", "3"], {
    cwd: root,
    env: {
      ...runnerEnvironment(),
      TASKBOARD_URL: apiUrl(),
      RUNNER_CAPACITY: String(maxConcurrent()),
      // Its clones and worktrees are this server's, on this disk: the repository API reports them
      // and the worktree sweep removes them (docs/runners.md, "The embedded runner").
      RUNNER_DIR: process.env.RUNNER_DIR?.trim() || dataDir(),
    },
    stdio: ["ignore", "inherit", "inherit", "pipe"],
  });
  (child.stdio[3] as NodeJS.WritableStream).end(registration.token);
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`[taskboard] the embedded runner exited (${signal ?? `code ${code}`})`);
  });
  // A stopped server stops its runner (which lets its runs finish or hands them back); a killed
  // one cannot, and the runner notices its parent is gone by itself.
  let stopping = false;
  process.once("exit", () => {
    stopping = true;
    if (child.exitCode === null) child.kill("SIGTERM");
  });
  console.log(`[taskboard] embedded runner started (pid ${child.pid}, capacity ${maxConcurrent()})`);
  return child;
}

/** The runner row and token this server uses; made anew when missing, deleted or not matching. */
async function register(db: Db): Promise<EmbeddedRegistration> {
  const saved = readEmbeddedRegistration();
  if (saved) {
    const row = await db.runner.findUnique({ where: { id: saved.id } });
    if (row && row.revokedAt === null && row.tokenHash === hashSecret(saved.token)) {
      if (row.capacity !== maxConcurrent()) await db.runner.update({ where: { id: row.id }, data: { capacity: maxConcurrent() } });
      return saved;
    }
  }
  const token = newRunnerSecret();
  const row = await db.runner.create({
    data: { name: `embedded (${os.hostname()})`, capacity: maxConcurrent(), labels: [], tokenHash: hashSecret(token) },
  });
  const registration = { id: row.id, token };
  fs.writeFileSync(embeddedRegistrationFile(), JSON.stringify(registration), { mode: 0o600 });
  return registration;
}

/** The server's environment without its secrets: the runner needs no database, key or auth secret. */
function runnerEnvironment(): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (SERVER_SECRET_NAME.test(key) || key.startsWith("TASKBOARD_") || key.startsWith("NEXT_") || key.startsWith("__NEXT")) continue;
    env[key] = value;
  }
  return env as NodeJS.ProcessEnv;
}
