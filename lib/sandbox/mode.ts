import { execFile, spawnSync } from "node:child_process";

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

/**
 * RUNNERS_REQUIRE_SANDBOX (docs/runners.md "Runners per workspace"): a runner that reports
 * `sandbox: none` gets no jobs. On by default, except where this server itself runs agents
 * unconfined (AGENT_SANDBOX=off: one trusted user on their own machine, whose embedded runner
 * reports none).
 */
export function runnersRequireSandbox(): boolean {
  const value = process.env.RUNNERS_REQUIRE_SANDBOX?.trim().toLowerCase();
  if (value === "true") return true;
  if (value === "false") return false;
  if (value) throw new Error(`RUNNERS_REQUIRE_SANDBOX must be true or false, not ${JSON.stringify(process.env.RUNNERS_REQUIRE_SANDBOX)}`);
  return sandboxMode() !== "off";
}

type Probe = { usable: boolean; reason: string | null };
let probed: Probe | undefined;
let probing: Promise<Probe> | undefined;
let warned = false;

const SOCAT_ARGS = ["-V"];
const PROBE_ARGS = ["--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev"]
  .concat(["bin", "lib", "lib64"].flatMap((name) => ["--symlink", `usr/${name}`, `/${name}`]))
  .concat(["true"]);

/** Whether bubblewrap can start a sandbox on this machine, and why not: probed once (synchronously if not yet). */
export function bubblewrapUsable(): Probe {
  if (!probed) {
    const socat = spawnSync("socat", SOCAT_ARGS, { stdio: "ignore", timeout: 5000 });
    const run = socat.error || socat.status !== 0 ? null : spawnSync("bwrap", PROBE_ARGS, { encoding: "utf8", timeout: 10_000 });
    probed = verdict(socat.error ?? (socat.status !== 0 ? new Error("socat failed") : undefined), run);
  }
  return probed;
}

/** The same, without blocking the server while bwrap starts: the runner warms it at start and awaits it per run. */
export function bubblewrapUsableAsync(): Promise<Probe> {
  if (probed) return Promise.resolve(probed);
  probing ??= (async () => {
    const socat = await settle("socat", SOCAT_ARGS);
    const run = socat.error || socat.status !== 0 ? null : await settle("bwrap", PROBE_ARGS);
    probed ??= verdict(socat.error ?? (socat.status !== 0 ? new Error("socat failed") : undefined), run);
    return probed;
  })();
  return probing;
}

function verdict(socatError: Error | undefined, run: { error?: Error; status: number | null; stderr: string } | null): Probe {
  if (socatError || !run) return { usable: false, reason: "socat is not installed" };
  if (run.error)
    return { usable: false, reason: `bubblewrap is not installed (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})` };
  if (run.status !== 0)
    return { usable: false, reason: `bubblewrap cannot make a sandbox here: ${run.stderr.trim() || `exit ${run.status}`}` };
  return { usable: true, reason: null };
}

function settle(command: string, args: string[]): Promise<{ error?: Error; status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (error && typeof code === "string") resolve({ error, status: null, stderr: String(stderr) });
      else resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
    });
  });
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
export async function sandboxDecision(isDemo: boolean): Promise<{ how: "sandbox" | "direct" } | { how: "refuse"; message: string }> {
  const mode = sandboxMode();
  if (mode === "off") {
    if (!warned) {
      warned = true;
      console.warn("[taskboard] AGENT_SANDBOX=off: agents run unconfined, with this server's user, files and network");
    }
    return { how: "direct" };
  }
  const { usable, reason } = await bubblewrapUsableAsync();
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
