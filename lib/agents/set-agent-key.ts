import type { Db } from "@/lib/db/client";
import { seal, unseal } from "@/lib/crypto/seal";
import { conflict, notFound } from "@/lib/platform/errors";
import { MAX_STORED_KEYS } from "@/lib/agents/schemas";
import { serializeAgentProfile } from "@/lib/agents/serialize";

// A model key an owner stores on a profile (value) or removes (null). Sealed at rest like the other
// secrets (lib/crypto/seal.ts), passed only to this profile's runs (lib/dispatch/build-job.ts), never
// answered again: the profile lists the names only. Row-locked, so two owners' saves do not lose one.

export async function setAgentKey(db: Db, workspaceId: string, agentId: string, name: string, value: string | null) {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM agent_profiles WHERE id = ${agentId} AND workspace_id = ${workspaceId} FOR UPDATE`;
    if (rows.length === 0) throw notFound("Agent");
    const row = await tx.agentProfile.findUniqueOrThrow({ where: { id: agentId }, select: { keysSealed: true } });
    const keys = row.keysSealed ? (JSON.parse(unseal(row.keysSealed)) as Record<string, string>) : {};
    if (value === null) delete keys[name];
    else keys[name] = value;
    const names = Object.keys(keys).sort();
    if (names.length > MAX_STORED_KEYS) throw conflict(`A profile keeps at most ${MAX_STORED_KEYS} keys: remove one first`);
    const saved = await tx.agentProfile.update({
      where: { id: agentId },
      data: { keysSealed: names.length ? seal(JSON.stringify(keys)) : null, keyNames: names },
    });
    return serializeAgentProfile(saved);
  });
}

/** The keys stored on a run's profile, for its job's environment; none without a profile. */
export async function storedKeys(db: Db, agentId: string | null): Promise<Record<string, string>> {
  if (!agentId) return {};
  const row = await db.agentProfile.findUnique({ where: { id: agentId }, select: { keysSealed: true } });
  return row?.keysSealed ? (JSON.parse(unseal(row.keysSealed)) as Record<string, string>) : {};
}
