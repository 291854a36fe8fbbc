import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../fixtures/scripted-model";
import { baseUrl, call, userWithWorkspace } from "../helpers/api";
import { signIn } from "../helpers/browser-session";
import { decide, follow } from "../helpers/oauth";

// The real Claude Code (the CLI inside @anthropic-ai/claude-agent-sdk) connecting to /api/mcp over
// OAuth, with no key given: `claude mcp add --transport http` only. Headless, its stream-json control
// request `mcp_authenticate` starts the flow (discovery from the 401, registration, PKCE) and answers
// the authorization URL instead of opening a browser; the test plays the person (sign in, Allow) and
// the browser's last redirect reaches Claude Code's own callback listener, which exchanges the code.
// A scripted model server then makes it call list_tasks. Shared server.

const CLI = path.resolve("node_modules/@anthropic-ai/claude-agent-sdk/cli.js");
const made = userWithWorkspace();
let model: ScriptedModel;
let child: ChildProcessWithoutNullStreams | undefined;
const home = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-claude-oauth-"));

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill();
    await exited;
  }
  await model?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Claude Code in stream-json mode: control requests and their answers, and every other message. */
function claude(env: Record<string, string>) {
  const proc = spawn(
    process.execPath,
    [
      CLI,
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
      "-p",
      "--allowedTools",
      "mcp__taskboard__list_tasks",
    ],
    {
      cwd: home,
      env: { ...process.env, HOME: home, ...env },
    },
  );
  const waiting = new Map<string, (response: any) => void>();
  const messages: any[] = [];
  let onResult: (message: any) => void = () => {};
  const result = new Promise<any>((resolve) => (onResult = resolve));
  readline.createInterface({ input: proc.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    if (message.type === "control_response") waiting.get(message.response.request_id)?.(message.response);
    else messages.push(message);
    if (message.type === "result") onResult(message);
  });
  let next = 0;
  const control = (request: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = `r${next++}`;
      waiting.set(id, resolve);
      proc.stdin.write(JSON.stringify({ type: "control_request", request_id: id, request }) + "\n");
    });
  const say = (text: string) =>
    proc.stdin.write(
      JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" }) + "\n",
    );
  return { proc, control, say, messages, result };
}

describe("the real Claude Code over MCP OAuth", () => {
  it("signs the person in through the browser flow and lists their tasks", { timeout: 120_000 }, async () => {
    const task = await call("POST", `/api/workspaces/${made.ws}/tasks`, {
      token: made.token,
      json: { title: "Listed by Claude Code over OAuth" },
    });
    expect(task.status).toBe(201);
    execFileSync(process.execPath, [CLI, "mcp", "add", "--transport", "http", "taskboard", `${baseUrl()}/api/mcp`], {
      cwd: home,
      env: { ...process.env, HOME: home },
    });
    model = await startScriptedModel();
    const marker = model.script("oauth-list", [
      { tools: [{ name: "mcp__taskboard__list_tasks", input: { workspace_id: made.ws } }] },
      (turn) => ({ text: `tasks: ${turn.results.join(" | ")}` }),
    ]);
    const callbackPort = await freePort();
    const cli = claude({
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-test-key",
      MCP_OAUTH_CALLBACK_PORT: String(callbackPort),
    });
    child = cli.proc;
    await cli.control({ subtype: "initialize" });

    const started = await cli.control({ subtype: "mcp_authenticate", serverName: "taskboard" });
    expect(started.subtype).toBe("success");
    const authUrl = new URL(started.response.authUrl);
    expect(authUrl.origin + authUrl.pathname).toBe(`${baseUrl()}/oauth/authorize`);
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("resource")).toBe(`${baseUrl()}/api/mcp`);
    expect(authUrl.searchParams.get("redirect_uri")).toBe(`http://localhost:${callbackPort}/callback`);

    // The person, in the browser Claude Code would have opened.
    const jar = await signIn(baseUrl(), made.owner.username, made.owner.password);
    const consent = await follow(baseUrl(), authUrl.href, jar);
    expect(consent.location).toContain("/oauth/consent/");
    const answer = await decide(baseUrl(), consent.location, jar, "allow");
    const back = await follow(baseUrl(), new URL(answer.body.location, baseUrl()).href, jar);
    expect(back.location).toMatch(new RegExp(`^http://localhost:${callbackPort}/callback\\?code=`));
    expect((await fetch(back.location)).status).toBe(200);

    // Claude Code exchanges the code and reconnects; wait until it says so.
    let status: any;
    for (let attempt = 0; attempt < 100; attempt++) {
      status = (await cli.control({ subtype: "mcp_status" })).response.mcpServers.find((server: any) => server.name === "taskboard");
      if (status?.status === "connected") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.status).toBe("connected");

    cli.say(`List the tasks of my workspace ${marker}`);
    const result = await cli.result;
    expect(result.subtype).toBe("success");
    expect(result.result).toContain(task.body.id);
    expect(result.result).toContain("Listed by Claude Code over OAuth");
  });
});
