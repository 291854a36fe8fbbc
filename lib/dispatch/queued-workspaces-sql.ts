import { Prisma } from "@/lib/generated/prisma/client";
import { RUN_STATUS } from "@/lib/runs/statuses";

/**
 * `WITH RECURSIVE queued_workspaces(workspace_id)`: each workspace with queued runs once (its last
 * row is NULL), by a skip scan on executions(status, workspace_id, created_at) that takes one index
 * step per workspace, never one per queued run. The claim and the runner status events both start
 * from it.
 */
export const QUEUED_WORKSPACES_CTE = Prisma.sql`
    WITH RECURSIVE queued_workspaces(workspace_id) AS (
      (SELECT workspace_id FROM executions WHERE status = ${RUN_STATUS.queued} ORDER BY workspace_id LIMIT 1)
      UNION ALL
      SELECT (SELECT e.workspace_id FROM executions e
              WHERE e.status = ${RUN_STATUS.queued} AND e.workspace_id > q.workspace_id ORDER BY e.workspace_id LIMIT 1)
      FROM queued_workspaces q WHERE q.workspace_id IS NOT NULL
    )`;
