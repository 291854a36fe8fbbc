import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { reactionStateResponse } from "@/lib/reactions/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

export const reactionOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/reactions",
    operationId: "listReactions",
    summary:
      "What the board does after each change (start unblocked tasks, board moves, pull requests), how far it is and its last error (owners)",
    tags: ["workspaces"],
    params: workspaceParams,
    responses: {
      200: { description: "One entry per reaction", schema: z.array(reactionStateResponse) },
      403: { description: "Not an owner of the workspace (agent tokens never are)" },
    },
  },
];
