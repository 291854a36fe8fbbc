import { expect } from "vitest";
import { newTask, workspaceOn, type EngineServer } from "./engine";

// The runner protocol driven by hand for the claim-policy tests (labels, fairness, caps, why a run
// waits): runners registered over HTTP, runs queued over HTTP, claims with no long poll.

export const CLAIM = { version: "test-1", sandbox: "bubblewrap", free: 1, wait_seconds: 0 };

export type ProtocolRunner = Awaited<ReturnType<typeof registerRunner>>;

export async function registerRunner(
  server: EngineServer,
  token: string,
  name: string,
  options: { capacity?: number; labels?: string[] } = {},
) {
  const created = await server.call("POST", "/api/runners", { token, json: { name, ...options } });
  expect(created.status).toBe(201);
  const runnerToken = created.body.token as string;
  const call = (method: string, path: string, json?: unknown) => server.call(method, `/api/runner${path}`, { token: runnerToken, json });
  return {
    id: created.body.id as string,
    token: runnerToken,
    call,
    /** One claim attempt: the job's execution id, or null. */
    async claim(): Promise<string | null> {
      const answer = await call("POST", "/claim", CLAIM);
      expect(answer.status).toBe(200);
      return (answer.body.job?.execution_id as string | undefined) ?? null;
    },
    async finish(executionId: string) {
      expect((await call("POST", `/executions/${executionId}/finish`, { status: "succeeded" })).status).toBe(204);
    },
    /** Deleted: it no longer counts as online. */
    async remove() {
      expect((await server.call("DELETE", `/api/runners/${created.body.id}`, { token })).status).toBe(204);
    },
  };
}

/** A fresh workspace on the server, and a way to queue runs in it. */
export async function queueIn(server: EngineServer) {
  const { token, wsId } = await workspaceOn(server);
  return {
    token,
    wsId,
    async queue(title: string, agentId?: string) {
      const task = await newTask(server.call, token, wsId, { title });
      const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {
        token,
        json: agentId ? { agent_id: agentId } : undefined,
      });
      expect(started.status).toBe(202);
      expect(started.body.status).toBe("queued");
      return { taskId: task.id, executionId: started.body.id as string };
    },
    execution: async (id: string) => (await server.call("GET", `/api/workspaces/${wsId}/executions/${id}`, { token })).body,
    cancel: async (id: string) => {
      expect((await server.call("POST", `/api/workspaces/${wsId}/executions/${id}/cancel`, { token })).status).toBe(200);
    },
  };
}
