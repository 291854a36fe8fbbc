import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataDir } from "@/lib/config";
import { hostPortOf, isLoopback, parseAllowEntry, type AllowEntry } from "@/lib/sandbox/allowlist";
import { bwrapArgs, systemMounts, taskGitMounts, type Mount } from "@/lib/sandbox/bwrap-args";
import { sandboxDecision, type SandboxKind } from "@/lib/sandbox/mode";
import { startNetwork, type Bridge } from "@/lib/sandbox/network";

// One agent process, wrapped in the sandbox (docs/runners.md, "The sandbox and its limits").
// The runner calls sandboxedCommand with what it would have started, and starts what it returns.
// What the agent sees: its worktree (read-write), a private HOME and /tmp deleted afterwards, the
// system's programs and the server's node_modules (the shipped agents) read-only, its own
// processes. What it reaches: the board's API, and the hosts of its profile's network_allow
// through a proxy, unless the profile's network is `full`.

export type NetworkPolicy = "allowlist" | "full";

export interface SandboxRequest {
  command: string;
  args: string[];
  /** The task's worktree: the only place of the machine's it writes. */
  cwd: string;
  /** The task's git directory and what it borrows, as the runner recorded them; absent in a scratch directory (no git at all). */
  git?: { gitDir: string; readOnly: string[] };
  env: NodeJS.ProcessEnv;
  /** The agent's private HOME (launchAgent makes one for a profile's agent); one is made here when absent. */
  home?: string;
  /** Directories it may write besides (its report's). */
  writable?: string[];
  networkAllow: string[];
  network: NetworkPolicy;
  /** Where it reaches the board (TASKBOARD_API_URL, the MCP URL). */
  boardUrl: string;
  /** The bundled demo agent: the server's own code, which `auto` runs unconfined when bubblewrap is missing. */
  isDemo: boolean;
}

export interface SandboxedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  kind: SandboxKind;
  /** Stops the network relays and deletes the private /tmp (and HOME, when made here). Safe to call twice. */
  cleanup: () => Promise<void>;
}

/** The agent may not start here; the message says why, and what to install. */
export class SandboxRefused extends Error {}

/** A command the sandbox does not find on the server (ENOENT, as spawning it would have said). */
export class CommandMissing extends Error {
  readonly code = "ENOENT";
}

const NET_DIR = "/run/taskboard-net";
/** A sandbox's directory (private /tmp, sockets) is named after the process that made it, for sweepSandboxes. */
const ROOT_PREFIX = "taskboard-sandbox-";
const PROXY_PORT = 3128;

// Outside: bubblewrap's own process stays the sandbox's init (PID 1) for as long as anything runs
// in it, the relays included, and holds the standard output and error it was given: the runner,
// which reads the agent's output until those pipes close, would wait for the relays long after the
// agent ended (2 s, its quiet period, on every run). So bwrap gets /dev/null and a file for its own
// messages, and the agent's pipes travel as fds 3 and 4, which bwrap's init closes (it keeps no
// extra descriptors) and the inner script puts back. bwrap's messages follow once it has ended.
// SIGTERM is ignored here and in bwrap (see below), and the exit status is bwrap's.
const OUTER = `trap "" TERM
messages=$1; shift
exec 3>&1 4>&2 >/dev/null 2>"$messages"
"$@"; status=$?
[ -s "$messages" ] && cat "$messages" >&4
exit $status`;

// Inside: the agent's output back on fds 1 and 2, one socat per relayed port (TCP on 127.0.0.1 →
// the Unix socket of network.ts), waiting until each listens (so the agent's first connection
// finds it), then the agent itself. Signals are reset to their defaults: the sh that starts bwrap
// outside ignores SIGTERM (see below).
const INIT = `exec 1>&3 2>&4 3>&- 4>&-
relays=$1; shift
for relay in $relays; do
  socat TCP4-LISTEN:\${relay%%=*},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${NET_DIR}/\${relay#*=} </dev/null >/dev/null 2>&1 &
done
for relay in $relays; do
  hex=$(printf '%04X' "\${relay%%=*}"); n=0
  while [ $n -lt 500 ] && ! grep -q ":$hex 00000000:0000 0A" /proc/net/tcp; do n=$((n+1)); sleep 0.01; done
done
exec "$@"`;

export async function sandboxedCommand(request: SandboxRequest): Promise<SandboxedCommand> {
  const decision = await sandboxDecision(request.isDemo);
  if (decision.how === "refuse") throw new SandboxRefused(decision.message);
  if (decision.how === "direct") {
    return { command: request.command, args: request.args, env: request.env, kind: "none", cleanup: async () => {} };
  }
  const program = resolveProgram(request.command, request.env.PATH);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${ROOT_PREFIX}${process.pid}-`));
  let network: { close: () => Promise<void> } | null = null;
  const cleanup = async () => {
    await network?.close();
    network = null;
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    const tmp = path.join(root, "tmp");
    const net = path.join(root, "net");
    fs.mkdirSync(tmp, { mode: 0o1777 });
    fs.chmodSync(tmp, 0o1777);
    fs.mkdirSync(net, { mode: 0o700 });
    const home = request.home ?? path.join(root, "home");
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });

    const system = systemMounts();
    const mounts: Mount[] = [...system.mounts, { kind: "rw", source: tmp, dest: "/tmp" }];
    for (const dir of readOnlyExtras(program)) mounts.push({ kind: "ro", source: fs.realpathSync(dir), dest: dir });
    mounts.push({ kind: "rw", source: fs.realpathSync(request.cwd), dest: request.cwd });
    if (request.git) mounts.push(...taskGitMounts(request.git));
    mounts.push({ kind: "rw", source: fs.realpathSync(home), dest: home });
    for (const dir of request.writable ?? []) mounts.push({ kind: "rw", source: fs.realpathSync(dir), dest: dir });

    const env: NodeJS.ProcessEnv = { ...request.env, HOME: home };
    if (!env.TMPDIR || !isInside(env.TMPDIR, home)) env.TMPDIR = "/tmp";
    let relays = "";
    const full = request.network === "full";
    if (!full) {
      const { allow, bridges } = reachable(request);
      const proxyPort = freeInside(bridges);
      network = await startNetwork(net, allow, bridges);
      mounts.push({ kind: "rw", source: net, dest: NET_DIR });
      relays = [...bridges.map((b) => `${b.port}=${b.port}.sock`), `${proxyPort}=proxy.sock`].join(" ");
      const proxy = `http://127.0.0.1:${proxyPort}`;
      Object.assign(env, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy, ALL_PROXY: proxy });
      // The relayed loopback ports are reached directly, at the same address as outside.
      Object.assign(env, { NO_PROXY: "127.0.0.1,localhost,::1", no_proxy: "127.0.0.1,localhost,::1" });
    }
    const bwrap = bwrapArgs({ mounts, symlinks: system.symlinks, fullNetwork: full, cwd: request.cwd });
    const inner = ["env", "--default-signal=TERM", "/bin/sh", "-c", INIT, "sandbox-init", relays, program, ...request.args];
    // bwrap's own process would die at a cancel's SIGTERM to the process group, and the runner
    // would take the agent for gone while it finishes. Started with SIGTERM ignored, bwrap stays
    // until the agent (signals reset inside) has ended; the SIGKILL after the grace period ends all.
    return {
      command: "/bin/sh",
      args: ["-c", OUTER, "sandbox", path.join(root, "bwrap-messages"), "bwrap", ...bwrap, "--", ...inner],
      env,
      kind: "bubblewrap",
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * The loopback ports relayed in (the board's, and loopback entries), and the allowlist of the
 * proxy. A `*_BASE_URL` variable the agent was given (a model gateway the server's operator set)
 * counts as listed: the agent could not work without it.
 */
function reachable(request: SandboxRequest): { allow: AllowEntry[]; bridges: Bridge[] } {
  const allow: AllowEntry[] = [];
  const ports = new Set<number>();
  const add = (host: string, port: number | null, operator = false) => {
    if (isLoopback(host) && port !== null) ports.add(port);
    allow.push({ host, port, wildcard: false, ...(operator ? { operator } : {}) });
  };
  for (const text of request.networkAllow) {
    const entry = parseAllowEntry(text);
    if (!entry) continue;
    if (entry.wildcard) allow.push(entry);
    else add(entry.host, entry.port);
  }
  const urls = [
    request.boardUrl,
    ...Object.entries(request.env)
      .filter(([k, v]) => k.endsWith("_BASE_URL") && v)
      .map(([, v]) => v!),
  ];
  // The operator's own hosts (the board, a gateway whose URL comes from the server's environment)
  // may sit on a private address: the proxy's address check spares them, never a profile's entries.
  for (const url of urls) {
    const target = hostPortOf(url);
    if (target) add(target.host, target.port, true);
  }
  return { allow, bridges: [...ports].map((port) => ({ port, host: "127.0.0.1" })) };
}

function freeInside(bridges: Bridge[]): number {
  let port = PROXY_PORT;
  while (bridges.some((b) => b.port === port)) port++;
  return port;
}

/**
 * Read-only besides the system: the server's node_modules (the shipped agents and their
 * dependencies), the demo agent, Node itself when it lives outside /usr, the program when it is
 * installed elsewhere, and AGENT_SANDBOX_READONLY (the operator's own additions). Never DATA_DIR.
 */
function readOnlyExtras(program: string): string[] {
  const cwd = /*turbopackIgnore: true*/ process.cwd();
  const paths = [path.join(cwd, "node_modules"), path.join(cwd, "scripts", "demo-agent.mjs")];
  const node = fs.realpathSync(process.execPath);
  if (!node.startsWith("/usr/")) paths.push(path.dirname(path.dirname(node)));
  if (path.isAbsolute(program) && !program.startsWith("/usr/")) paths.push(program);
  for (const extra of (process.env.AGENT_SANDBOX_READONLY ?? "").split(":")) if (path.isAbsolute(extra)) paths.push(extra);
  const data = dataDir();
  return [...new Set(paths)].filter((p) => fs.existsSync(p) && !isInside(p, data) && !isInside(data, p));
}

/** The program's absolute path, found on PATH as spawning it would; CommandMissing when it is nowhere. */
function resolveProgram(command: string, searchPath: string | undefined): string {
  const runnable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/")) {
    const absolute = path.resolve(command);
    if (runnable(absolute)) return absolute;
  } else {
    for (const dir of (searchPath ?? "/usr/bin:/bin").split(":")) {
      if (dir && runnable(path.join(dir, command))) return path.join(dir, command);
    }
  }
  throw new CommandMissing(`spawn ${command} ENOENT`);
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), path.resolve(child));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Removes the directories of sandboxes whose server process is gone (killed before its runs' clean-up);
 * called at start, after the orphaned agents were stopped. Other live servers' sandboxes are kept.
 */
export function sweepSandboxes() {
  const pattern = new RegExp(`^${ROOT_PREFIX}(\\d+)-`);
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
