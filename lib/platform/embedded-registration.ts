import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config";

// The embedded runner's registration (its runner id and token), kept in DATA_DIR, which no agent
// sees. Written by lib/server/embedded-runner.ts; read there and by the worktree sweep, which
// deletes files only for this runner's records (lib/git/worktree/sweep-worktrees.ts).

export interface EmbeddedRegistration {
  id: string;
  token: string;
}

export function embeddedRegistrationFile(): string {
  return path.join(dataDir(), "embedded-runner.json");
}

export function readEmbeddedRegistration(): EmbeddedRegistration | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(embeddedRegistrationFile(), "utf8")) as Partial<EmbeddedRegistration>;
    return typeof parsed.id === "string" && typeof parsed.token === "string" ? { id: parsed.id, token: parsed.token } : null;
  } catch {
    return null;
  }
}
