import { api } from "@/lib/client/api";

/** Creates the first administrator on a fresh server (the one-time set-up page). */
export function createFirstAdmin(input: { username: string; password: string; code?: string }) {
  return api<unknown>("/api/setup", { method: "POST", json: input });
}
