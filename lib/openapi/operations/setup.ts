import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { setupBody, user } from "@/lib/users/schemas";

export const setupOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/setup",
    operationId: "getSetupState",
    summary: "Whether the first administrator still has to be created",
    tags: ["setup"],
    auth: false,
    responses: { 200: { description: "Setup state", schema: z.object({ needs_setup: z.boolean(), code_required: z.boolean() }) } },
  },
  {
    method: "post",
    path: "/api/setup",
    operationId: "createFirstAdmin",
    summary: "Create the first administrator (once)",
    tags: ["setup"],
    auth: false,
    body: setupBody,
    responses: {
      201: { description: "The administrator", schema: user },
      403: {
        description:
          "From another machine than the server's: the setup code is missing or wrong; or password login is turned off (the first single sign-on user becomes the administrator)",
      },
      409: { description: "Setup is already done" },
    },
  },
];
