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
// keeps working with the next one: it finishes and reports its runs, then exits (lib/runner-process/main.ts).
// RUNNER_EMBEDDED=false: no child; only runner processes started elsewhere run agents.

export async function startEmbeddedRunner(db: Db): Promise<ChildProcess> {
  const registration = await register(db);
  const root = /*turbopackIgnore: true*/ process.cwd();
  // The token goes through a pipe (fd 3), not the environment or the command line, which any
  // process of this user could read in /proc (an unsandboxed agent under AGENT_SANDBOX=off).
  const child = spawn(process.execPath, [...runnerEntry(root), "--embedded", "--token-fd", "3"], {
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
  const entry = { child, stopping: false };
  embedded = entry;
  child.on("exit", (code, signal) => {
    if (!entry.stopping) console.error(`[taskboard] the embedded runner exited (${signal ?? `code ${code}`})`);
  });
  // A stopped server stops its runner first (lib/server/shutdown.ts: its runs finish or are handed
  // back while this server still answers); this is for an exit by any other way. A killed server
  // cannot, and the runner notices its parent is gone by itself.
  process.once("exit", () => {
    entry.stopping = true;
    if (running(child)) child.kill("SIGTERM");
  });
  console.log(`[taskboard] embedded runner started (pid ${child.pid}, capacity ${maxConcurrent()})`);
  return child;
}

let embedded: { child: ChildProcess; stopping: boolean } | undefined;

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * SIGTERM to the embedded runner, which stops claiming, lets its runs go on for
 * RUNNER_GRACE_SECONDS and hands back what is left; resolves when it has exited, or SIGKILLs it
 * after `timeoutMs` (whatever it still held is ended by its lease).
 */
export async function stopEmbeddedRunner(timeoutMs: number): Promise<"none" | "exited" | "killed"> {
  const entry = embedded;
  if (!entry || !running(entry.child)) return "none";
  entry.stopping = true;
  const { child } = entry;
  const exited = new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const inTime = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (inTime) return "exited";
  child.kill("SIGKILL");
  await exited;
  return "killed";
}

/**
 * `next start` runs a build, and `npm run build` bundles the runner into plain JavaScript
 * (scripts/build-runner.mjs), which starts in a third of the time tsx needs to compile it; `next dev`
 * (or a build made before the bundle existed) runs the TypeScript through tsx.
 */
function runnerEntry(root: string): string[] {
  const bundle = path.join(root, ".next", "runner", "main.mjs");
  if (process.env.NODE_ENV === "production" && fs.existsSync(bundle)) return ["--enable-source-maps", bundle];
  return ["--import", "tsx", path.join(root, "lib", "runner-process", "main.ts")];
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
