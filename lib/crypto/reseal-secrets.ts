import type { Db } from "@/lib/db/client";
import { needsReseal, seal, unseal } from "@/lib/crypto/seal";

// At start-up, every stored secret not sealed under the current key is sealed again: webhook
// secrets stored in the clear before sealing existed, agent profiles' model keys, and values sealed under an
// AUTH_SECRET_PREVIOUS after a rotation (docs/SECURITY.md, "Secrets at rest"). Each row is
// updated only if it still holds what was read, so instances starting together, or an owner
// changing the secret meanwhile, never lose a value. Reads accept every form until then.

export async function resealSecrets(db: Db): Promise<number> {
  let count = 0;
  const webhooks = await db.webhook.findMany({ select: { id: true, secret: true } });
  for (const row of webhooks.filter((webhook) => needsReseal(webhook.secret))) {
    const sealed = resealed(row.secret, `webhook ${row.id}`);
    if (!sealed) continue;
    const { count: updated } = await db.webhook.updateMany({ where: { id: row.id, secret: row.secret }, data: { secret: sealed } });
    count += updated;
  }
  const repositories = await db.workspaceRepository.findMany({
    where: { credentialSealed: { not: null } },
    select: { workspaceId: true, credentialSealed: true },
  });
  for (const row of repositories.filter((repository) => needsReseal(repository.credentialSealed!))) {
    const sealed = resealed(row.credentialSealed!, `the repository credential of workspace ${row.workspaceId}`);
    if (!sealed) continue;
    const { count: updated } = await db.workspaceRepository.updateMany({
      where: { workspaceId: row.workspaceId, credentialSealed: row.credentialSealed },
      data: { credentialSealed: sealed },
    });
    count += updated;
  }
  const profiles = await db.agentProfile.findMany({ where: { keysSealed: { not: null } }, select: { id: true, keysSealed: true } });
  for (const row of profiles.filter((profile) => needsReseal(profile.keysSealed!))) {
    const sealed = resealed(row.keysSealed!, `the model keys of agent profile ${row.id}`);
    if (!sealed) continue;
    const { count: updated } = await db.agentProfile.updateMany({
      where: { id: row.id, keysSealed: row.keysSealed },
      data: { keysSealed: sealed },
    });
    count += updated;
  }
  const secrets = await db.serverSecret.findMany({ select: { name: true, value: true } });
  for (const row of secrets.filter((secret) => needsReseal(secret.value))) {
    const sealed = resealed(row.value, `the server secret ${row.name}`);
    if (!sealed) continue;
    const { count: updated } = await db.serverSecret.updateMany({ where: { name: row.name, value: row.value }, data: { value: sealed } });
    count += updated;
  }
  return count;
}

/** Sealed under the current key; null (and a line in the log) when it was sealed under a key the server does not know. */
function resealed(stored: string, what: string): string | null {
  try {
    return seal(unseal(stored));
  } catch (error) {
    console.error(`[taskboard] cannot read ${what}: ${(error as Error).message}`);
    return null;
  }
}
