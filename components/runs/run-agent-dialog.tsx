"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAgentProfiles, useFallbackAgent } from "@/lib/client/agents";
import { useStartRun } from "@/lib/client/runs";
import { taskQuery } from "@/lib/client/tasks";
import type { Task } from "@/lib/client/types";
import { Dialog } from "@/components/ui/dialog";
import { ErrorText, inputClass, primaryButton, secondaryButton, Spinner } from "@/components/ui/field";

// "Run agent": pick a profile (the workspace default preselected), edit the instructions (the task's
// title and description to start with), start. The run's live view opens once the server took it.

export function RunAgentDialog({
  workspaceId,
  taskId,
  onClose,
  onStarted,
}: {
  workspaceId: string;
  taskId: string;
  onClose: () => void;
  onStarted: (executionId: string, title: string) => void;
}) {
  const task = useQuery(taskQuery(workspaceId, taskId));
  return (
    <Dialog open onClose={onClose} title={task.data ? `Run agent on #${task.data.number}` : "Run agent"} wide>
      {task.isError ? (
        <ErrorText>Could not load the task: {task.error.message}</ErrorText>
      ) : task.data ? (
        <RunAgentForm workspaceId={workspaceId} task={task.data} onClose={onClose} onStarted={onStarted} />
      ) : (
        <div aria-busy="true" className="h-40 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      )}
    </Dialog>
  );
}

function RunAgentForm({
  workspaceId,
  task,
  onClose,
  onStarted,
}: {
  workspaceId: string;
  task: Task;
  onClose: () => void;
  onStarted: (executionId: string, title: string) => void;
}) {
  const profiles = useAgentProfiles(workspaceId);
  const fallback = useFallbackAgent(workspaceId);
  const start = useStartRun(workspaceId, task.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const [instructions, setInstructions] = useState(() => defaultInstructions(task));
  // Until the person picks, the choice is the workspace default (or the server's own agent).
  const agentId = chosen ?? profiles.data?.find((agent) => agent.is_default)?.id ?? profiles.data?.[0]?.id ?? "";

  return (
    <form
      aria-label="Run agent"
      onSubmit={(event) => {
        event.preventDefault();
        start.mutate(
          { instructions, ...(agentId ? { agent_id: agentId } : {}) },
          { onSuccess: (execution) => onStarted(execution.id, `#${task.number} ${task.title}`) },
        );
      }}
    >
      <label className="mb-3 block text-sm font-medium">
        Agent
        {profiles.isPending ? (
          <span className="mt-1 block">
            <Spinner label="Loading agent profiles" />
          </span>
        ) : (
          <select value={agentId} onChange={(e) => setChosen(e.target.value)} className={inputClass}>
            {(profiles.data ?? []).map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
                {agent.is_default ? " (default)" : ""}
              </option>
            ))}
            {profiles.data?.length ? null : (
              <option value="">
                {fallback.data ? (fallback.data.demo ? "Demo agent (changes nothing)" : fallback.data.name) : "The server's agent"}
              </option>
            )}
          </select>
        )}
      </label>
      {!profiles.data?.length && fallback.data ? (
        <p className="-mt-2 mb-3 text-xs text-slate-600 dark:text-slate-400" data-testid="fallback-agent">
          {fallback.data.description}
        </p>
      ) : null}
      {profiles.isError ? <ErrorText>Could not read the agent profiles: {profiles.error.message}</ErrorText> : null}
      <label className="mb-3 block text-sm font-medium">
        Instructions
        <textarea
          required
          rows={10}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          className={`${inputClass} font-mono`}
        />
      </label>
      <ErrorText>{start.error ? `Not started: ${start.error.message}` : null}</ErrorText>
      <div className="flex gap-2">
        <button type="submit" className={primaryButton} disabled={start.isPending || profiles.isPending}>
          {start.isPending ? "Starting…" : "Start run"}
        </button>
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function defaultInstructions(task: Task): string {
  return task.description.trim() ? `${task.title}\n\n${task.description.trim()}` : task.title;
}
