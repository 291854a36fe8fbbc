import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { keepEnvironment } from "@/tests/helpers/environment";

// A machine without bubblewrap and socat: PATH leads nowhere when the probe runs (once per process,
// so the module is loaded afresh: a file before this one in the worker may have probed already).
const restoreEnvironment = keepEnvironment();
const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-bwrap-"));
let { sandboxDecision, sandboxKind, sandboxMode } = {} as typeof import("@/lib/sandbox/mode");

beforeAll(async () => {
  process.env.PATH = empty;
  vi.resetModules();
  ({ sandboxDecision, sandboxKind, sandboxMode } = await import("@/lib/sandbox/mode"));
});

afterAll(() => {
  vi.resetModules(); // the files after this one probe the real machine again
  restoreEnvironment();
  fs.rmSync(empty, { recursive: true, force: true });
});

describe("AGENT_SANDBOX without bubblewrap", () => {
  it("auto runs only the bundled demo agent, and refuses the others with the install command", async () => {
    delete process.env.AGENT_SANDBOX;
    expect(sandboxMode()).toBe("auto");
    expect(sandboxKind()).toBe("none");
    expect(await sandboxDecision(true)).toEqual({ how: "direct" });
    const refused = await sandboxDecision(false);
    expect(refused.how).toBe("refuse");
    expect(refused.how === "refuse" && refused.message).toMatch(
      /not usable on this runner: socat is not installed\. To run agents, install bubblewrap and socat \(Debian\/Ubuntu: `apt-get install bubblewrap socat`\)/,
    );
  });

  it("bubblewrap refuses every run, the demo's too; off runs them unconfined", async () => {
    process.env.AGENT_SANDBOX = "bubblewrap";
    expect((await sandboxDecision(true)).how).toBe("refuse");
    process.env.AGENT_SANDBOX = "off";
    expect(sandboxKind()).toBe("none");
    expect(await sandboxDecision(false)).toEqual({ how: "direct" });
    process.env.AGENT_SANDBOX = "sometimes";
    expect(() => sandboxMode()).toThrow(/AGENT_SANDBOX must be one of auto, bubblewrap, off/);
  });
});
