// Serves the production build for Playwright on E2E_PORT with a fresh embedded database and a
// known administrator, and removes that database when Playwright stops it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./lib/build-state.mjs";
import { E2E_ADMIN, E2E_GITHUB_WEBHOOK_SECRET } from "./lib/e2e-admin.mjs";

const port = process.env.E2E_PORT || "3210";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-e2e-"));
const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    GITHUB_WEBHOOK_SECRET: E2E_GITHUB_WEBHOOK_SECRET,
    // tests/e2e/webhooks.spec.ts delivers to a receiver on 127.0.0.1.
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true",
  },
});
const cleanUp = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
