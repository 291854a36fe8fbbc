import { withWorkspace } from "@/lib/api/handler";
import { workspaceEventStream } from "@/lib/events/sse";
import { workspaceParams } from "@/lib/workspaces/schemas";

// A long-lived response: never cached or prerendered.
export const dynamic = "force-dynamic";

export const GET = withWorkspace({ params: workspaceParams }, async ({ workspace, request }) =>
  workspaceEventStream(workspace.id, request.signal),
);
