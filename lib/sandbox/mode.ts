import { spawnSync } from "node:child_process";

// AGENT_SANDBOX: whether agents run inside bubblewrap (docs/runners.md, docs/configuration.md).
// `auto` (the default) uses it when it works here; `bubblewrap` requires it; `off` opts out.
// Whether bubblewrap (and socat, which carries the network allowlist) work is probed once per
// process by running a trivial sandbox, the way every run will.

export const SANDBOX_MODES = ["auto", "bubblewrap", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
/** What a runner reports it confines agents with. */
export type SandboxKind = "bubblewrap" | "none";

export const INSTALL_HINT = "install bubblewrap and socat (Debian/Ubuntu: `apt-get install bubblewrap socat`)";

export function sandboxMode(): SandboxMode {
  const value = (process.env.AGENT_SANDBOX ?? "").trim().toLowerCase();
  if (!value) return "auto";
  if ((SANDBOX_MODES as readonly string[]).includes(value)) return value as SandboxMode;
  throw new Error(`AGENT_SANDBOX must be one of ${SANDBOX_MODES.join(", ")}, not ${JSON.stringify(process.env.AGENT_SANDBOX)}`);
}

let probed: { usable: boolean; reason: string | null } | undefined;
let warned = false;

/** Whether bubblewrap can start a sandbox on this machine (probed once), and why not. */
export function bubblewrapUsable(): { usable: boolean; reason: string | null } {
  if (!probed) probed = probe();
  return probed;
}

function probe(): { usable: boolean; reason: string | null } {
  const socat = spawnSync("socat", ["-V"], { stdio: "ignore", timeout: 5000 });
  if (socat.error || socat.status !== 0) return { usable: false, reason: "socat is not installed" };
  const run = spawnSync(
    "bwrap",
    ["--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", ...usrMerged(), "--proc", "/proc", "--dev", "/dev", "true"],
    { encoding: "utf8", timeout: 10_000 },
  );
  if (run.error)
    return { usable: false, reason: `bubblewrap is not installed (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})` };
  if (run.status !== 0)
    return { usable: false, reason: `bubblewrap cannot make a sandbox here: ${run.stderr.trim() || `exit ${run.status}`}` };
  return { usable: true, reason: null };
}

/** /bin, /lib… as the host has them: symlinks into /usr (merged /usr), or nothing for the probe. */
function usrMerged(): string[] {
  return ["bin", "lib", "lib64"].flatMap((name) => ["--symlink", `usr/${name}`, `/${name}`]);
}

/** What this process confines agents with: `bubblewrap`, or `none` (off, or auto without a usable bubblewrap). */
export function sandboxKind(): SandboxKind {
  const mode = sandboxMode();
  if (mode === "off") return "none";
  return bubblewrapUsable().usable ? "bubblewrap" : "none";
}

/**
 * Whether an agent may start, and how: `sandbox` (bubblewrap), `direct` (unconfined: AGENT_SANDBOX=off,
 * or the bundled demo agent under `auto` without bubblewrap), or `refuse` with the reason in words.
 */
export function sandboxDecision(isDemo: boolean): { how: "sandbox" | "direct" } | { how: "refuse"; message: string } {
  const mode = sandboxMode();
  if (mode === "off") {
    if (!warned) {
      warned = true;
      console.warn("[taskboard] AGENT_SANDBOX=off: agents run unconfined, with this server's user, files and network");
    }
    return { how: "direct" };
  }
  const { usable, reason } = bubblewrapUsable();
  if (usable) return { how: "sandbox" };
  if (mode === "auto" && isDemo) return { how: "direct" };
  return {
    how: "refuse",
    message:
      `Agents run only inside a sandbox, and it is not usable on this runner: ${reason}. ` +
      `To run agents, ${INSTALL_HINT}` +
      (mode === "auto" ? "; or set AGENT_SANDBOX=off to run them unconfined (only for one trusted user on their own machine)." : "."),
  };
}
