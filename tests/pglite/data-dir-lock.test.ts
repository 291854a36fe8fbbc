import { describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server.mjs";

describe("the embedded database's directory", () => {
  it("is refused to a second process while the first holds it, and taken over once it is gone", async () => {
    const first = await startServer({ label: "lock-first" });
    try {
      const second = startServer({ label: "lock-second", dataDir: first.dataDir });
      await expect(second).rejects.toThrow(/in use by another process \(pid \d+\)/);
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    } finally {
      first.child.kill("SIGKILL");
      await new Promise((resolve) => first.child.once("exit", resolve));
    }
    // A lock left by a killed process does not block the next start.
    const third = await startServer({ label: "lock-third", dataDir: first.dataDir });
    expect((await fetch(`${third.url}/api/health`)).status).toBe(200);
    await third.stop();
    await first.stop();
    // Three server starts, each opening PGlite: allow for a busy 2-core machine.
  }, 120_000);
});
