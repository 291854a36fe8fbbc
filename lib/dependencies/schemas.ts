import { z } from "zod";
import { columnKey } from "@/lib/tasks/schemas";

// Request and response shapes of the task dependency operations (lib/openapi/operations/dependencies.ts).

export const dependencyParams = z.object({
  id: z.string(),
  task_id: z.string().describe("The task that waits (the dependant)."),
  blocker_id: z.string().describe("The task it waits for (the blocker); a task of the same workspace."),
});

/** A task as a dependency list shows it. */
export const dependencyTask = z.object({
  id: z.string(),
  number: z.int(),
  title: z.string(),
  status: columnKey,
});
export type DependencyTask = z.output<typeof dependencyTask>;

export const dependenciesResponse = z.object({
  blocked_by: z.array(dependencyTask).describe("The task's blockers, oldest dependency first."),
  blocks: z.array(dependencyTask).describe("The tasks waiting for this one, oldest dependency first."),
});

const taskRef = dependencyTask.pick({ id: true, number: true, title: true });

/** The payload of `task.dependency_added` / `task.dependency_removed`: `task` waits (waited) for `blocker`. */
export const dependencyEventData = z.object({ task: taskRef, blocker: taskRef });
