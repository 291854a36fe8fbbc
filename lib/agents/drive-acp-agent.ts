import type { ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type InitializeResponse,
  type McpServer,
  type RequestPermissionRequest,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { readInside, writeInside } from "@/lib/agents/confine-path";

// Drives one Agent Client Protocol agent (Claude Code, Codex, Gemini CLI, OpenCode through their
// ACP adapters, or our fake agent in tests) that the runner has already spawned: handshake, a
// session rooted in the task's worktree, one prompt turn. The runner keeps owning the process
// (process group, timeout, SIGTERM then SIGKILL); this module only speaks the protocol on its pipes.

export interface AcpPermissionAnswer {
  /** The id of the option the person chose, or null when the turn was cancelled before an answer. */
  optionId: string | null;
}

export interface DriveAcpOptions {
  child: ChildProcess;
  /** Absolute path of the task's worktree: the session's cwd and the only place its fs requests may touch. */
  cwd: string;
  instructions: string;
  /** A session of an earlier run to continue, where the agent supports session/load. */
  resumeSessionId?: string | null;
  /** `_meta` of session/new (e.g. Claude Code's system prompt addition). */
  sessionMeta?: Record<string, unknown> | null;
  /** The model the session says it uses (its model state or "model" configuration option), when it says. */
  onModel?: (model: string) => void;
  /** MCP servers for the session; a function decides from the agent's capabilities (initialize's answer). */
  mcpServers?: McpServer[] | ((init: InitializeResponse) => McpServer[]);
  /** Once the session exists (new or loaded), before the prompt: so a follow-up can continue it even if this turn fails. */
  onSession?: (sessionId: string, resumed: boolean) => void;
  /** Each session/update in arrival order (`sessionUpdate` is the entry's type). */
  onUpdate: (update: SessionUpdate) => void;
  /** A permission request; resolves when a person answers, or with null once `signal` aborts. */
  onPermission: (request: RequestPermissionRequest, signal: AbortSignal) => Promise<AcpPermissionAnswer>;
  /** The agent's answer to initialize (its name, version and capabilities), before any session. */
  onInitialize?: (response: InitializeResponse) => void;
  /** Aborting sends session/cancel; the agent then ends its turn with stopReason "cancelled". */
  signal: AbortSignal;
}

export interface AcpOutcome {
  sessionId: string;
  stopReason: StopReason;
  /** True when an earlier session was continued with session/load. */
  resumed: boolean;
  /** What the prompt's answer said about usage (`usage`, or `_meta.usage`), as the agent sent it; null when nothing. */
  usage: Record<string, unknown> | null;
}

const EXIT_GRACE_MS = 500;

/** A protocol failure in words: JSON-RPC errors carry their message and details, which people need. */
export class AcpError extends Error {}

export async function driveAcpAgent(options: DriveAcpOptions): Promise<AcpOutcome> {
  const { child, cwd } = options;
  if (!child.stdin || !child.stdout) throw new AcpError("The agent process has no standard input or output");
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  // Updates are applied in arrival order by the caller; the SDK dispatches notifications without
  // waiting, so nothing here may await between receiving and handing on an update.
  // While session/load replays the earlier conversation as updates, they are not handed on: the
  // earlier run's log already has them (notifications arrive, and are dispatched, before the answer).
  let replaying = false;
  const app = client({ name: "taskboard" })
    .onNotification("session/update", ({ params }) => {
      if (!replaying) options.onUpdate(params.update);
    })
    .onRequest("session/request_permission", async ({ params, signal }) => {
      const aborted = anySignal([signal, options.signal]);
      const answer = await options.onPermission(params, aborted);
      return answer.optionId ? { outcome: { outcome: "selected", optionId: answer.optionId } } : { outcome: { outcome: "cancelled" } };
    })
    // A missing file reads as empty: Gemini CLI reads a file before creating it and gives up on "not found".
    .onRequest("fs/read_text_file", async ({ params }) => ({
      content: await readInside(cwd, params.path, params.line, params.limit).catch(emptyIfMissing),
    }))
    .onRequest("fs/write_text_file", async ({ params }) => {
      await writeInside(cwd, params.path, params.content);
      return {};
    });

  // The pipes may close a moment before the exit is reported; either way the person should read
  // how the agent ended, not "connection closed".
  const exit = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) =>
      resolve(`The agent exited before finishing its turn (${signal ? `signal ${signal}` : `exit code ${code}`})`),
    ),
  );
  const exited = exit.then((message) => Promise.reject(new AcpError(message)));
  exited.catch(() => {});

  try {
    return await Promise.race([
      exited,
      app.connectWith(stream, async (agent) => {
        const init = await agent.request("initialize", {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
          clientInfo: { name: "taskboard", version: "0.1.0" },
        });
        options.onInitialize?.(init);
        const mcpServers = typeof options.mcpServers === "function" ? options.mcpServers(init) : (options.mcpServers ?? []);
        let sessionId: string;
        let resumed = false;
        if (options.resumeSessionId && init.agentCapabilities?.loadSession) {
          replaying = true;
          try {
            reportModel(await agent.request("session/load", { sessionId: options.resumeSessionId, cwd, mcpServers }), options.onModel);
          } finally {
            replaying = false;
          }
          sessionId = options.resumeSessionId;
          resumed = true;
        } else {
          const created = await agent.request("session/new", {
            cwd,
            mcpServers,
            ...(options.sessionMeta ? { _meta: options.sessionMeta } : {}),
          });
          reportModel(created, options.onModel);
          sessionId = created.sessionId;
        }
        options.onSession?.(sessionId, resumed);
        const cancel = () => void agent.notify("session/cancel", { sessionId }).catch(() => {});
        if (options.signal.aborted) cancel();
        else options.signal.addEventListener("abort", cancel, { once: true });
        try {
          const response = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: options.instructions }] });
          const answered = quotaOf(response)?.model_usage?.[0]?.model;
          if (typeof answered === "string" && answered) options.onModel?.(answered);
          return { sessionId, stopReason: response.stopReason, resumed, usage: reportedUsage(response) };
        } finally {
          options.signal.removeEventListener("abort", cancel);
        }
      }),
    ]);
  } catch (error) {
    if (error instanceof AcpError) throw error;
    const exitMessage = await Promise.race([exit, delay(EXIT_GRACE_MS)]);
    throw new AcpError(exitMessage && !(error instanceof RequestError) ? exitMessage : describeAcpFailure(error));
  }
}

/** "Internal error: Query closed before response received" rather than "[object Object]". */
export function describeAcpFailure(error: unknown): string {
  if (error instanceof RequestError) {
    const data = error.data as { details?: unknown; message?: unknown } | undefined;
    const details = typeof data?.details === "string" ? data.details : typeof data?.message === "string" ? data.message : null;
    return details ? `${error.message}: ${details}` : error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

interface Quota {
  token_count?: Record<string, unknown>;
  model_usage?: { model?: unknown }[];
}

/** Gemini CLI's `_meta.quota`: its token counts and, per model, which model answered. */
function quotaOf(response: object): Quota | null {
  const quota = (response as { _meta?: { quota?: unknown } | null })._meta?.quota;
  return quota && typeof quota === "object" ? (quota as Quota) : null;
}

/** ACP's (unstable) `usage` on the prompt's answer, the same object under `_meta.usage`, or Gemini CLI's `_meta.quota.token_count`. */
function reportedUsage(response: object): Record<string, unknown> | null {
  const { usage, _meta } = response as { usage?: unknown; _meta?: { usage?: unknown } | null };
  const found = usage ?? _meta?.usage ?? quotaOf(response)?.token_count;
  return found && typeof found === "object" && !Array.isArray(found) ? (found as Record<string, unknown>) : null;
}

function emptyIfMissing(error: unknown): string {
  if (error instanceof RequestError && error.code === RequestError.resourceNotFound().code) return "";
  throw error;
}

/** `models.currentModelId` (unstable model state) or the "model" configuration option's value. */
function reportModel(response: object | null | undefined, onModel?: (model: string) => void) {
  const { models, configOptions } = (response ?? {}) as {
    models?: { currentModelId?: unknown } | null;
    configOptions?: { id?: unknown; currentValue?: unknown }[] | null;
  };
  const fromOptions = Array.isArray(configOptions) ? configOptions.find((option) => option?.id === "model")?.currentValue : undefined;
  const model = models?.currentModelId ?? fromOptions;
  if (typeof model === "string" && model) onModel?.(model);
}

function delay(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms).unref());
}

function anySignal(signals: AbortSignal[]): AbortSignal {
  return AbortSignal.any(signals);
}
