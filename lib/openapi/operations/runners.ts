import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import {
  createdRunner,
  createRunnerBody,
  runnerParams,
  runnerRecord,
  workspaceRunners,
  workspaceRunnersBody,
} from "@/lib/dispatch/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

const adminOnly = { 403: { description: "Only administrators may do this" } };

export const runnerOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/runners",
    operationId: "listRunners",
    summary: "The registered runners, oldest first, with whether each is online (administrators only)",
    tags: ["runners"],
    responses: { 200: { description: "Runners", schema: z.array(runnerRecord) }, ...adminOnly },
  },
  {
    method: "post",
    path: "/api/runners",
    operationId: "createRunner",
    summary: "Register a runner; its token is in this answer only (administrators only)",
    tags: ["runners"],
    body: createRunnerBody,
    responses: { 201: { description: "The runner and its token", schema: createdRunner }, ...adminOnly },
  },
  {
    method: "delete",
    path: "/api/runners/{runner_id}",
    operationId: "deleteRunner",
    summary: "Delete a runner: its token stops working at once, and its runs end failed when their lease runs out (administrators only)",
    tags: ["runners"],
    params: runnerParams,
    responses: { 204: { description: "Deleted" }, ...adminOnly, 404: { description: "Runner not found" } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/runners",
    operationId: "getWorkspaceRunners",
    summary: "Which of the server's runners may take the workspace's jobs, and whether the server refuses runners without a sandbox",
    tags: ["runners"],
    params: workspaceParams,
    responses: { 200: { description: "The workspace's choice and the server's runners", schema: workspaceRunners } },
  },
  {
    method: "put",
    path: "/api/workspaces/{id}/runners",
    operationId: "setWorkspaceRunners",
    summary:
      "Choose which runners may take the workspace's jobs (owners; null: every runner). An excluded runner is never handed one of its runs",
    tags: ["runners"],
    params: workspaceParams,
    body: workspaceRunnersBody,
    responses: {
      200: { description: "The workspace's choice and the server's runners", schema: workspaceRunners },
      403: { description: "Not an owner, or an agent's token" },
      422: { description: "A runner id this server does not have" },
    },
  },
];
