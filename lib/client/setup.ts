import { api } from "@/lib/client/api";

/** Creates the first administrator on a fresh server (the one-time set-up page). */
export function createFirstAdmin(username: string, password: string) {
  return api<unknown>("/api/setup", { method: "POST", json: { username, password } });
}
