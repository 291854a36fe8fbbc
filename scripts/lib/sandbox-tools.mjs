import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { hasCommand } from "./has-command.mjs";

// The programs the tests run besides Node: the agent sandbox's (docs/runners.md: bubblewrap and
// socat, and ripgrep, which the real Claude Code's tools use) and Dovecot, the IMAP server the mail
// tests read replies from (docs/email.md). `npm test` finds them the way it finds a browser:
// present, else (as root with apt) Debian's packages, else it says what to run.
const PROGRAMS = { bwrap: "bubblewrap", socat: "socat", rg: "ripgrep", dovecot: "dovecot-imapd" };

// Dovecot lives in /usr/sbin, which a user's PATH may leave out.
const present = (name) => hasCommand(name) || fs.existsSync(`/usr/sbin/${name}`);
export const SANDBOX_INSTALL_COMMAND = `sudo apt-get update && sudo apt-get install -y ${Object.values(PROGRAMS).join(" ")}`;

/** True when every program is there (after installing them if this process may). */
export function ensureSandboxTools() {
  const missing = () => Object.keys(PROGRAMS).filter((name) => !present(name));
  if (missing().length === 0) return true;
  if (process.getuid?.() === 0 && hasCommand("apt-get")) {
    const packages = missing().map((name) => PROGRAMS[name]);
    console.log(`[test] installing Debian's ${packages.join(", ")} for the tests…`);
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  return missing().length === 0;
}
