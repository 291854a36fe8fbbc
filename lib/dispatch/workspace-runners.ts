import type { Db } from "@/lib/db/client";
import type { z } from "zod";
import { ValidationError } from "@/lib/platform/errors";
import { isOnline } from "@/lib/dispatch/serialize";
import { runnersRequireSandbox } from "@/lib/sandbox/mode";
import { jobsRefusedReason } from "@/lib/dispatch/require-sandbox";
import { RUNNER_STATUS, type workspaceRunnersBody, type WorkspaceRunners } from "@/lib/dispatch/schemas";

// Runners per workspace (docs/runners.md): a job carries the workspace's repository credentials
// and agent keys to whichever runner takes it, so owners choose which of the server's runners may
// take theirs. No choice stored: every runner but the dedicated ones, which serve only the
// workspaces that chose them. The claim's query enforces it (lib/dispatch/claim-job.ts).
// Members see the runners' names and sandboxes (runs already show runner names), not their labels
// or tokens: those stay with administrators under /api/runners.

export async function getWorkspaceRunners(db: Db, workspaceId: string): Promise<WorkspaceRunners> {
  const [choice, rows] = await Promise.all([
    db.workspaceRunnerChoice.findUnique({ where: { workspaceId } }),
    db.runner.findMany({ where: { revokedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1000 }),
  ]);
  const chosen = choice ? new Set(choice.runnerIds) : null;
  return {
    // Deleted runners drop out of the answer; the stored choice may still name them, harmlessly.
    runner_ids: chosen ? rows.filter((row) => chosen.has(row.id)).map((row) => row.id) : null,
    require_sandbox: runnersRequireSandbox(),
    runners: rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: isOnline(row.lastSeenAt) ? RUNNER_STATUS.online : RUNNER_STATUS.offline,
      sandbox: row.sandbox,
      dedicated: row.dedicated,
      allowed: chosen === null ? !row.dedicated : chosen.has(row.id),
      jobs_refused: jobsRefusedReason(row.sandbox, row.id),
    })),
  };
}

export async function setWorkspaceRunners(
  db: Db,
  workspaceId: string,
  body: z.output<typeof workspaceRunnersBody>,
): Promise<WorkspaceRunners> {
  if (body.runner_ids === null) {
    await db.workspaceRunnerChoice.deleteMany({ where: { workspaceId } });
    return getWorkspaceRunners(db, workspaceId);
  }
  const ids = [...new Set(body.runner_ids)];
  const known = new Set(
    (await db.runner.findMany({ where: { id: { in: ids }, revokedAt: null }, select: { id: true } })).map((row) => row.id),
  );
  const unknown = body.runner_ids.flatMap((id, index) => (known.has(id) ? [] : [{ id, index }]));
  if (unknown.length > 0) {
    throw new ValidationError(
      unknown.map(({ id, index }) => ({
        type: "value_error",
        loc: ["body", "runner_ids", index],
        msg: "Value error, no runner of this server has this id (GET /api/workspaces/{id}/runners lists them)",
        input: id,
      })),
    );
  }
  await db.workspaceRunnerChoice.upsert({
    where: { workspaceId },
    create: { workspaceId, runnerIds: ids },
    update: { runnerIds: ids },
  });
  return getWorkspaceRunners(db, workspaceId);
}
