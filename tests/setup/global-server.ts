import { spawnSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { needsBuild, root } from "../../scripts/lib/build-state.mjs";
import { startServer } from "../../scripts/lib/server.mjs";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";

export const ADMIN = { username: "admin", password: "admin-password-for-tests" };

// The API tests' project only (after tests/setup/database-setup.ts): the production build and the
// server they share. Unit tests never wait for either.
export default async function setup(project: TestProject) {
  if (needsBuild()) {
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const kind = process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "pglite";
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_test", { migrated: true }) : undefined;
  const server = await startServer({
    databaseUrl: scratch?.url,
    label: `api-${kind}`,
    // Four agent slots: three vitest workers, each file of which may hold one run open (a `hold N`
    // agent), still leave one for a file that starts a run and expects it to start.
    // The whole run's data lives here: the default buffer pool (empty is unset), not the short-lived servers' one.
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AGENT_MAX_CONCURRENT: "4", PGLITE_SHARED_BUFFERS_MB: "" },
  });
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", scratch?.url ?? "");
  project.provide("serverDataDir", server.dataDir);
  return async () => {
    await server.stop();
    await scratch?.drop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    /** The shared server's DATA_DIR: its clones of workspaces' repositories, for a test that removes one. */
    serverDataDir: string;
  }
}
