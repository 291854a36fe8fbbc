"use client";

import { createContext, useContext } from "react";

export interface WorkspaceUi {
  workspaceId: string;
  questionsOpen: boolean;
  setQuestionsOpen: (open: boolean | ((open: boolean) => boolean)) => void;
  openHelp: () => void;
  /** Opens a run's live view (by its execution): a started run, fix conflicts, a history row. */
  watchExecution: (executionId: string, title: string) => void;
  /** Opens the Run agent dialog for a task. */
  runAgent: (taskId: string) => void;
  openTask: (taskId: string) => void;
  /** The caller is a viewer of this workspace: the screens offer no change (the server refuses them anyway). */
  readOnly: boolean;
}

export const WorkspaceContext = createContext<WorkspaceUi | null>(null);

export function useWorkspaceUi(): WorkspaceUi {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error("useWorkspaceUi outside a workspace page");
  return value;
}
