import { execFileSync } from "node:child_process";
import { hasCommand } from "./has-command.mjs";

// The agent sandbox's programs (docs/runners.md): bubblewrap and socat, and ripgrep, which the
// real Claude Code's tools use. The tests run real agents in the sandbox, so `npm test` finds them
// the way it finds a browser: present, else (as root with apt) Debian's packages, else it says what
// to run.
const PROGRAMS = { bwrap: "bubblewrap", socat: "socat", rg: "ripgrep" };
export const SANDBOX_INSTALL_COMMAND = `sudo apt-get update && sudo apt-get install -y ${Object.values(PROGRAMS).join(" ")}`;

/** True when every program is there (after installing them if this process may). */
export function ensureSandboxTools() {
  const missing = () => Object.keys(PROGRAMS).filter((name) => !hasCommand(name));
  if (missing().length === 0) return true;
  if (process.getuid?.() === 0 && hasCommand("apt-get")) {
    const packages = missing().map((name) => PROGRAMS[name]);
    console.log(`[test] installing Debian's ${packages.join(", ")} for the agent sandbox…`);
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  return missing().length === 0;
}
