import type { z } from "zod";

// One entry per operation of the API. Each domain lists its operations in
// lib/openapi/operations/<domain>.ts with the SAME zod schemas its routes validate with;
// lib/openapi/document.ts turns them into the OpenAPI 3.1 document served at /openapi.json.
export interface OperationSpec {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. "/api/workspaces/{id}/tasks/{task_id}". */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Bearer (or session cookie) required; default true. `runner`: a runner's token, and nothing else (/api/runner/…). */
  auth?: boolean | "runner";
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A request body that is not JSON (a runner's git bundle): its media type and what it is. */
  rawBody?: { contentType: string; description: string };
  /** Success and error responses by status; a schema-less entry means no body (e.g. 204). */
  responses: Record<number, { description: string; schema?: z.ZodType; /** default application/json */ contentType?: string }>;
}
