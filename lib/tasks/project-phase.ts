import { notFound, ValidationError } from "@/lib/platform/errors";
import type { Tx } from "@/lib/db/client";

/**
 * A task's project must belong to its workspace (404 Project not found), and its phase must index
 * the project's phases (422 at body.phase). Without a project any phase ≥ 1 is kept as given.
 */
export async function checkProjectPhase(tx: Tx, workspaceId: string, projectId: string | null, phase: number | null) {
  if (projectId === null) return;
  const project = await tx.project.findFirst({ where: { id: projectId, workspaceId }, select: { phases: true } });
  if (!project) throw notFound("Project");
  if (phase !== null && phase > project.phases.length) {
    const max = project.phases.length;
    throw new ValidationError([
      {
        type: "less_than_equal",
        loc: ["body", "phase"],
        msg: `Input should be less than or equal to ${max} (the number of the project's phases)`,
        input: phase,
        ctx: { le: max },
      },
    ]);
  }
}
