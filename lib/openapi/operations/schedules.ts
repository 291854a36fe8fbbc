import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import {
  createScheduleBody,
  defaultInstructionsResponse,
  listSchedulesQuery,
  scheduleDetailResponse,
  scheduleParams,
  scheduleResponse,
  triggerResponse,
  updateScheduleBody,
} from "@/lib/schedules/schemas";

const scheduleNotFound = { 404: { description: "Workspace or schedule not found" } };
const peopleOnly = { 403: { description: "An agent token (only people write and trigger schedules)" } };

export const scheduleOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/workspaces/{id}/schedules",
    operationId: "createSchedule",
    summary: "Create a schedule",
    tags: ["schedules"],
    params: workspaceParams,
    body: createScheduleBody,
    responses: {
      201: { description: "The schedule", schema: scheduleResponse },
      ...peopleOnly,
      404: { description: "Workspace or task not found" },
      409: { description: "A schedule with that slug already exists" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/schedules",
    operationId: "listSchedules",
    summary: "Schedules, oldest first; at most `limit` (default 100, max 500)",
    tags: ["schedules"],
    params: workspaceParams,
    query: listSchedulesQuery,
    responses: { 200: { description: "Schedules", schema: z.array(scheduleResponse) } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/schedules/{ref}",
    operationId: "getSchedule",
    summary: "One schedule (by id or slug), with its next three run times",
    tags: ["schedules"],
    params: scheduleParams,
    responses: { 200: { description: "The schedule", schema: scheduleDetailResponse }, ...scheduleNotFound },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/schedules/{ref}",
    operationId: "updateSchedule",
    summary: "Change some fields of a schedule; next_run_at is recomputed",
    tags: ["schedules"],
    params: scheduleParams,
    body: updateScheduleBody,
    responses: {
      200: { description: "The schedule", schema: scheduleResponse },
      ...peopleOnly,
      404: { description: "Workspace, schedule or task not found" },
      409: { description: "A schedule with that slug already exists" },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/schedules/{ref}",
    operationId: "deleteSchedule",
    summary: "Delete a schedule",
    tags: ["schedules"],
    params: scheduleParams,
    responses: { 204: { description: "Deleted" }, ...peopleOnly, ...scheduleNotFound },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/schedules/{ref}/default-instructions",
    operationId: "getScheduleDefaultInstructions",
    summary: "The instructions a triggered run of this schedule gets",
    tags: ["schedules"],
    params: scheduleParams,
    responses: { 200: { description: "Default instructions", schema: defaultInstructionsResponse }, ...scheduleNotFound },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/schedules/{ref}/trigger",
    operationId: "triggerSchedule",
    summary:
      "Start a run now (trigger manual) with the default instructions, on the schedule's task or on a new task at the end of the todo column",
    tags: ["schedules"],
    params: scheduleParams,
    responses: {
      202: { description: "The run is queued", schema: triggerResponse },
      ...peopleOnly,
      ...scheduleNotFound,
      409: { description: "The task already has an active execution" },
    },
  },
];
