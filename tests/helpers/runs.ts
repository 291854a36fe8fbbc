import { engineServer, FIXTURE_AGENT, newStore, newTask, workspaceOn, type EngineServer } from "./engine";

// The server the manual-run tests share (tests/api/runs.test.ts, tests/api/run-control.test.ts): the
// fixture agent behind every run, a short timeout and two runs at a time.

export async function startRunsServer(label: string) {
  const store = await newStore(label);
  const server = await engineServer(store, {
    AGENT_COMMAND: FIXTURE_AGENT,
    // Long enough for a sandboxed start (bubblewrap, relays) and Node on a busy machine: a "succeed" run must not time out.
    AGENT_TIMEOUT_SECONDS: "6",
    AGENT_KILL_GRACE_SECONDS: "1",
    AGENT_MAX_CONCURRENT: "2",
    AGENT_LOG_FLUSH_MS: "200",
  });
  const { token, wsId } = await workspaceOn(server);
  return { store, server, token, wsId };
}

/** The calls those tests make, against the server `current` names once it has started. */
export function runsApi(current: () => { server: EngineServer; token: string; wsId: string }) {
  const base = () => `/api/workspaces/${current().wsId}`;
  return {
    base,
    run: (taskId: string, instructions?: string) =>
      current().server.call("POST", `${base()}/tasks/${taskId}/runs`, {
        token: current().token,
        json: instructions === undefined ? undefined : { instructions },
      }),
    task: (title = "a task") => newTask(current().server.call, current().token, current().wsId, { title }),
    getLog: (executionId: string, query = "") =>
      current().server.call("GET", `${base()}/executions/${executionId}/log${query}`, { token: current().token }),
  };
}
