import { z } from "zod";
import { PRIORITIES } from "@/lib/tasks/columns";

// The board's narrowing filters besides `assignee` and `q` (lib/tasks/assignee-schemas.ts,
// lib/tasks/schemas.ts), shared by GET …/board and GET …/board/column/{column}. They combine: a
// task is shown when it passes every filter given.
export const boardFilters = {
  project_id: z.string().trim().min(1).max(100).optional().describe("Only tasks of this project (its id)."),
  tag: z.string().trim().min(1).max(50).optional().describe("Only tasks with this tag (exactly, as stored)."),
  priority: z.enum(PRIORITIES).optional().describe("Only tasks of this priority."),
};
