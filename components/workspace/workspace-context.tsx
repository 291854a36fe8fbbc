"use client";

import { createContext, useContext } from "react";

export interface WorkspaceUi {
  workspaceId: string;
  questionsOpen: boolean;
  setQuestionsOpen: (open: boolean | ((open: boolean) => boolean)) => void;
  openHelp: () => void;
  /** Opens a live view of an execution (fix conflicts, a triggered schedule). */
  watchExecution: (executionId: string, title: string) => void;
  openTask: (taskId: string) => void;
}

export const WorkspaceContext = createContext<WorkspaceUi | null>(null);

export function useWorkspaceUi(): WorkspaceUi {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error("useWorkspaceUi outside a workspace page");
  return value;
}
