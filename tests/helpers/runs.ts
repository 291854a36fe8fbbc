import type { client } from "./api";
import { newTask } from "./engine";
import { workspaceWithRunner } from "./runner-of-its-own";

// What the manual-run tests share (tests/api/runs.test.ts, tests/api/run-control.test.ts).

/**
 * On the shared server: a workspace whose default agent profile is the fixture, served only by a
 * runner process of the file's own (`env` adds to its environment). Stop it in afterAll, after
 * `cancelLeft`.
 */
export async function runsWorkspace(name: string, env: Record<string, string> = {}) {
  return workspaceWithRunner(name, { AGENT_KILL_GRACE_SECONDS: "1", AGENT_LOG_FLUSH_MS: "200", ...env });
}

type Current = { server: { call: ReturnType<typeof client> }; token: string; wsId: string };

/** The calls those tests make, against the workspace `current` names once it exists. */
export function runsApi(current: () => Current) {
  const base = () => `/api/workspaces/${current().wsId}`;
  // Every run started here, so that none a failed test left going holds up a runner's stop.
  const started: string[] = [];
  return {
    base,
    run: async (taskId: string, instructions?: string) => {
      const answer = await current().server.call("POST", `${base()}/tasks/${taskId}/runs`, {
        token: current().token,
        json: instructions === undefined ? undefined : { instructions },
      });
      if (typeof answer.body?.id === "string") started.push(answer.body.id);
      return answer;
    },
    task: (title = "a task") => newTask(current().server.call, current().token, current().wsId, { title }),
    getLog: (executionId: string, query = "") =>
      current().server.call("GET", `${base()}/executions/${executionId}/log${query}`, { token: current().token }),
    /** Cancels every run started here that has not ended (those that have answer 409). */
    async cancelLeft() {
      for (const id of started.splice(0))
        await current().server.call("POST", `${base()}/executions/${id}/cancel`, { token: current().token });
    },
  };
}
