import { call } from "./api";

/** Adds (POST) or removes (DELETE) the dependency "task is blocked by blocker", as `token`. */
export function setBlocker(method: "POST" | "DELETE", ws: string, taskId: string, blockerId: string, token: string) {
  return call(method, `/api/workspaces/${ws}/tasks/${taskId}/dependencies/${blockerId}`, { token });
}
