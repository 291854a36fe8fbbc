import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";

export const healthResponse = z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgresql"]) });

export const healthOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/health",
    operationId: "health",
    summary: "Liveness and database kind",
    tags: ["health"],
    auth: false,
    responses: { 200: { description: "The server and its database answer", schema: healthResponse } },
  },
];
