import { execFileSync } from "node:child_process";
import { hasCommand } from "./has-command.mjs";
import fs from "node:fs";

// The browser for Playwright, in the order the README promises: Playwright's own Chromium if one
// is installed, else CHROMIUM_PATH or /usr/bin/chromium, else (as root with apt) Debian's chromium.
// Nothing here downloads a browser build of its own.
export const INSTALL_COMMAND = "sudo apt-get update && sudo apt-get install -y chromium";

export async function findChromium({ install = true } = {}) {
  const bundled = await playwrightsOwnChromium();
  if (bundled) return bundled;
  for (const candidate of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  if (install && process.getuid?.() === 0 && hasCommand("apt-get")) {
    console.log("[test] no browser found; installing Debian's chromium with apt-get…");
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (fs.existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  }
  return null;
}

async function playwrightsOwnChromium() {
  try {
    const { chromium } = await import("@playwright/test");
    const file = chromium.executablePath();
    return file && fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}
