import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitEnvironment } from "@/lib/git/git-environment";
import { remoteHeads } from "@/lib/git/task-worktree";
import { reachRemote } from "@/lib/git/remote/reach-remote";
import { remoteFailure } from "@/lib/git/remote/remote-failure";
import { keepEnvironment } from "@/tests/helpers/environment";

// How git is pointed at a checked address with only the workspace's credential, seen from the
// programs git runs: a stand-in `ssh` on PATH records its arguments and the key it was handed.

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
let root: string;
let saved: NodeJS.ProcessEnv;
let restoreEnvironment: () => void;

beforeAll(() => {
  saved = { ...process.env };
  restoreEnvironment = keepEnvironment();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reach-remote-")));
  process.env.DATA_DIR = path.join(root, "data");
  process.env.REPOSITORIES_ALLOW_PRIVATE_ADDRESSES = "true";
  fs.mkdirSync(path.join(root, "bin"));
  const record = path.join(root, "ssh.log");
  fs.writeFileSync(
    path.join(root, "bin", "ssh"),
    `#!/bin/sh
printf '%s\\n' "$*" >> '${record}'
env > '${path.join(root, "ssh.env")}'
prev=""
for arg in "$@"; do
  if [ "$prev" = "-i" ]; then cat "$arg" >> '${record}'; stat -c 'mode %a' "$arg" >> '${record}'; echo "key at $arg" >> '${record}'; fi
  prev="$arg"
done
echo "git@localhost: Permission denied (publickey)." >&2
exit 255
`,
    { mode: 0o755 },
  );
});

afterAll(() => {
  restoreEnvironment();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("reachRemote", () => {
  it("pins ssh to the checked address, with the deploy key in a private file that outlives ssh by nothing", async () => {
    const url = "ssh://git@localhost:2222/team/app.git";
    const { access } = await reachRemote("ws-ssh", url, { type: "deploy_key", private_key: KEY });
    process.env.PATH = `${path.join(root, "bin")}:${saved.PATH}`;
    const failure = await remoteHeads(url, access).then(
      () => "",
      (error: Error) => error.message,
    );
    process.env.PATH = saved.PATH;
    expect(remoteFailure(failure)).toBe("authentication failed");
    const log = fs.readFileSync(path.join(root, "ssh.log"), "utf8");
    const [argv] = log.split("\n");
    expect(argv).toMatch(/-o HostName=(127\.0\.0\.1|::1) /);
    for (const option of [
      "-F /dev/null",
      "-o HostKeyAlias=localhost",
      "-o IdentitiesOnly=yes",
      "-o IdentityAgent=none",
      "-o BatchMode=yes",
      "-p 2222",
    ])
      expect(argv).toContain(option);
    expect(argv).not.toContain("b3BlbnNzaC1rZXktdjEAAAAA");
    expect(log).toContain(KEY.trimEnd());
    expect(log).toContain("mode 600");
    const keyFile = log.match(/key at (.+)/)![1];
    expect(fs.existsSync(keyFile)).toBe(false);
    // Nothing secret in the environment git and ssh ran with.
    expect(fs.readFileSync(path.join(root, "ssh.env"), "utf8")).not.toContain("b3BlbnNzaC1rZXktdjEAAAAA");
  });

  it("without a deploy key, ssh gets no identity at all; https gets a pinned address and the token only as a header", async () => {
    const ssh = await reachRemote("ws-none", "git@localhost:team/app.git", null);
    expect(ssh.access.sshCommand).toContain("-o IdentityFile=none");
    const https = await reachRemote("ws-http", "https://localhost:8443/team/app.git", {
      type: "access_token",
      token: "secret-token",
    });
    const config = Object.fromEntries(https.access.config);
    expect(config["http.curloptResolve"]).toMatch(/^localhost:8443:(127\.0\.0\.1|\[::1\])$/);
    expect(Object.fromEntries(https.access.secretConfig!)).toEqual({
      "http.https://localhost:8443/.extraHeader": `Authorization: Basic ${Buffer.from("x-access-token:secret-token").toString("base64")}`,
    });
    expect(JSON.stringify(https.access.config)).not.toContain("secret");
    expect(https.url).toBe("https://localhost:8443/team/app.git");
    const env = gitEnvironment();
    expect(env).toMatchObject({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" });
    const base = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]),
    );
    expect(base).toEqual({ "credential.helper": "", "core.askPass": "", "http.followRedirects": "false" });
    expect(env.HOME).toBe(path.join(root, "data", "git-home"));
    expect(fs.readdirSync(env.HOME)).toEqual([]);
  });

  it("refuses a private address unless REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true", async () => {
    process.env.REPOSITORIES_ALLOW_PRIVATE_ADDRESSES = "";
    try {
      await expect(reachRemote("ws", "https://localhost/x.git", null)).rejects.toThrow(/REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true/);
      await expect(reachRemote("ws", "git@[::1]:x.git", null)).rejects.toThrow();
    } finally {
      process.env.REPOSITORIES_ALLOW_PRIVATE_ADDRESSES = "true";
    }
  });
});
