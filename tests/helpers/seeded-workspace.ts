import type { Db } from "@/lib/db/client";
import { seedSql } from "../../scripts/lib/bench-seed.mjs";

/**
 * A workspace of a new owner, filled straight into the database with the bench's own seed
 * (scripts/lib/bench-seed.mjs): `perColumn` tasks in each column, with projects, questions, runs
 * and assignees. For the tests of the board's statements on a database of their own.
 */
export async function seededWorkspace(db: Db, name: string, perColumn: number): Promise<{ workspaceId: string; userId: string }> {
  const user = await db.user.create({ data: { username: `${name}-owner`, passwordHash: "-" } });
  const workspaceId = (await db.workspace.create({ data: { name } })).id;
  await db.membership.create({ data: { workspaceId, userId: user.id, role: "owner" } });
  // A prepared statement holds one command, so the seed goes one at a time.
  const seed = seedSql(workspaceId, perColumn)
    .split(/;\s*\n/)
    .filter((text) => text.replace(/--.*$/gm, "").trim());
  await db.$transaction(async (tx) => {
    for (const text of seed) await tx.$executeRawUnsafe(text);
  });
  return { workspaceId, userId: user.id };
}
