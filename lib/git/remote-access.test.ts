import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { materializeAccess } from "@/lib/git/remote-access";

// A remote's secret for one git command: an owner-only file git includes, named on the command line,
// gone afterwards; the command line and the environment never hold the secret itself.

describe("materializeAccess", () => {
  it("writes the secret configuration to a private file that git reads back exactly, and removes it", async () => {
    const header = 'Authorization: Basic dG9rZW4=; "quoted" \\ back';
    const access = await materializeAccess({
      config: [["http.curloptResolve", "example.com:443:192.0.2.1"]],
      secretConfig: [["http.https://example.com/.extraHeader", header]],
      sshKey: "-----BEGIN KEY-----\nsecret-key\n-----END KEY-----\n",
      sshCommand: "ssh -F /dev/null",
    });
    const include = access.args[access.args.indexOf("-c", 2) + 1].replace(/^include\.path=/, "");
    expect(access.args).toEqual(["-c", "http.curloptResolve=example.com:443:192.0.2.1", "-c", `include.path=${include}`]);
    expect(fs.statSync(include).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(include)).mode & 0o777).toBe(0o700);
    const read = execFileSync("git", ["config", "--file", include, "--get", "http.https://example.com/.extraheader"], { encoding: "utf8" });
    expect(read).toBe(`${header}\n`);
    const key = access.env.GIT_SSH_COMMAND.match(/-i '(.+)'$/)![1];
    expect(fs.readFileSync(key, "utf8")).toBe("-----BEGIN KEY-----\nsecret-key\n-----END KEY-----\n");
    expect(JSON.stringify([access.args, access.env])).not.toMatch(/dG9rZW4|secret-key/);
    access.dispose();
    expect(fs.existsSync(path.dirname(include))).toBe(false);
  });

  it("writes nothing when there is no secret", async () => {
    const access = await materializeAccess({ config: [], sshCommand: "ssh -o IdentityFile=none" });
    expect(access).toMatchObject({ args: [], env: { GIT_SSH_COMMAND: "ssh -o IdentityFile=none" } });
  });
});
