import { withWorkspace } from "@/lib/api/handler";
import { eventsQuery } from "@/lib/events/schemas";
import { workspaceEventStream } from "@/lib/api/sse";
import { workspaceParams } from "@/lib/workspaces/schemas";

// A long-lived response: never cached or prerendered.
export const dynamic = "force-dynamic";

export const GET = withWorkspace({ params: workspaceParams, query: eventsQuery }, ({ workspace, caller, request, sql, query }) =>
  workspaceEventStream({ workspaceId: workspace.id, userId: caller.userId, request, sql, after: query.after }),
);
