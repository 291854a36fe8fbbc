// Serves the production build for Playwright on E2E_PORT with a fresh embedded database and a
// known administrator, and removes that database when Playwright stops it. Its GitHub is a fake
// (tests/fixtures/fake-github-process.ts) started first, whose App settings the server gets; browser
// tests arrange what the fake holds through its control port (E2E_PORT + 1000).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { root } from "./lib/build-state.mjs";
import { E2E_ADMIN, E2E_GITHUB_WEBHOOK_SECRET, e2eScratchRoot } from "./lib/e2e-admin.mjs";
import { nextStartArgs } from "./lib/next-start.mjs";
import { TEST_NODE_ARGS } from "./lib/test-node-args.mjs";

const port = process.env.E2E_PORT || "3210";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-e2e-"));
const scratch = e2eScratchRoot(port);
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch);
const fakeGithub = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/fixtures/fake-github-process.ts")], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, FAKE_GITHUB_CONTROL_PORT: String(Number(port) + 1000), FAKE_GITHUB_WEBHOOK_SECRET: E2E_GITHUB_WEBHOOK_SECRET },
});
const first = await new Promise((resolve, reject) => {
  fakeGithub.once("exit", (code) => reject(new Error(`the fake GitHub exited with ${code}`)));
  readline.createInterface({ input: fakeGithub.stdout }).once("line", resolve);
});
const github = JSON.parse(first).env;
const server = spawn(process.execPath, [...TEST_NODE_ARGS, ...nextStartArgs(port)], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    ...github,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    GITHUB_WEBHOOK_SECRET: E2E_GITHUB_WEBHOOK_SECRET,
    // The agents' model APIs: the scripted model server tests/e2e/real-claude.spec.ts starts on E2E_PORT + 2000.
    ...scriptedModelEnv(`http://127.0.0.1:${Number(port) + 2000}`),
    // The test agents (tests/fixtures) are read from the agent sandbox too (docs/runners.md).
    AGENT_SANDBOX_READONLY: path.join(root, "tests", "fixtures"),
    // A short threshold, so tests/e2e/real-claude.spec.ts sees a quiet run's card within seconds.
    AGENT_SILENCE_SECONDS: "3",
    // tests/e2e/webhooks.spec.ts delivers to a receiver on 127.0.0.1.
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true",
    // tests/e2e/repository-credential.spec.ts serves its git remote on 127.0.0.1.
    REPOSITORIES_ALLOW_PRIVATE_ADDRESSES: "true",
  },
});
function scriptedModelEnv(url) {
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "sk-ant-e2e",
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: "sk-e2e",
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_API_KEY: "gemini-e2e",
  };
}
const cleanUp = () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.kill(signal);
    fakeGithub.kill(signal);
  });
}
server.on("exit", (code) => {
  fakeGithub.kill("SIGTERM");
  cleanUp();
  process.exit(code ?? 0);
});
