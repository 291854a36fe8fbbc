"use client";

import { useState } from "react";
import {
  useAgentPresets,
  useAgentProfiles,
  useCreateAgent,
  useDeleteAgent,
  useUpdateAgent,
  type AgentInput,
  type AgentPreset,
} from "@/lib/client/agents";
import { dangerButton, ErrorText, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { AgentEditForm } from "@/components/settings/agent-edit-form";
import { AgentKeys } from "@/components/settings/agent-keys";
import { card } from "@/components/settings/settings-card";
import { SectionState } from "@/components/ui/section-state";

const muted = "text-sm text-slate-600 dark:text-slate-400";

/** Agent profiles: which agent a run starts. Writing one is for administrators (it is a command the server runs). */
export function AgentsSection({ workspaceId }: { workspaceId: string }) {
  const profiles = useAgentProfiles(workspaceId);
  const presets = useAgentPresets(workspaceId);
  const create = useCreateAgent(workspaceId);
  const update = useUpdateAgent(workspaceId);
  const remove = useDeleteAgent(workspaceId);
  const toast = useToast();
  const [editing, setEditing] = useState<string | null>(null);
  const error = create.error ?? update.error ?? remove.error;
  const addPreset = (preset: AgentPreset) =>
    create.mutate(
      {
        name: preset.name,
        kind: preset.kind,
        command: preset.command,
        args: preset.args,
        env_passthrough: preset.env_passthrough,
        network_allow: preset.network_allow,
        preset: preset.kind === "acp" ? (preset.preset as AgentInput["preset"]) : null,
      },
      { onSuccess: () => toast(`Added ${preset.name}`) },
    );
  return (
    <section aria-labelledby="agents-title" className={card}>
      <h2 id="agents-title" className="mb-2 font-semibold">
        Agents
      </h2>
      <ErrorText>{error?.message}</ErrorText>
      <SectionState
        query={profiles}
        what="the agent profiles"
        empty={<>No profiles yet: runs use the server&apos;s default agent (AGENT_COMMAND, or the bundled demo agent).</>}
        emptyClassName={muted}
      >
        {(data) => (
          <ul className="mb-4 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Agent profiles">
            {data.map((agent) => (
              <li key={agent.id} className="flex flex-wrap items-center gap-3 py-2" data-testid="agent-profile">
                {editing === agent.id ? (
                  <AgentEditForm
                    agent={agent}
                    pending={update.isPending}
                    onCancel={() => setEditing(null)}
                    onSave={(change) =>
                      update.mutate(change, {
                        onSuccess: () => {
                          setEditing(null);
                          toast(`Saved ${change.name ?? agent.name}`);
                        },
                      })
                    }
                  />
                ) : (
                  <>
                    <div className="min-w-0 flex-1">
                      <p className="text-sm font-medium">
                        {agent.name}{" "}
                        {agent.is_default ? (
                          <span className="ml-1 rounded bg-blue-100 px-1.5 text-xs text-blue-900 dark:bg-blue-900 dark:text-blue-100">
                            default
                          </span>
                        ) : null}
                      </p>
                      <p className={`${muted} truncate font-mono text-xs`}>
                        {agent.kind === "acp" ? "ACP" : "command"}: {[agent.command, ...agent.args].join(" ")}
                      </p>
                      {agent.labels.length > 0 ? (
                        <p className={`${muted} text-xs`}>Runs on runners labelled {agent.labels.join(", ")}</p>
                      ) : null}
                    </div>
                    {!agent.is_default ? (
                      <button type="button" className={secondaryButton} onClick={() => update.mutate({ id: agent.id, is_default: true })}>
                        Make default
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className={secondaryButton}
                      aria-label={`Edit ${agent.name}`}
                      onClick={() => setEditing(agent.id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={dangerButton}
                      aria-label={`Delete ${agent.name}`}
                      onClick={() => remove.mutate(agent.id, { onSuccess: () => toast(`Deleted ${agent.name}`) })}
                    >
                      Delete
                    </button>
                    <AgentKeys workspaceId={workspaceId} agent={agent} />
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <h3 className="mb-2 text-sm font-semibold">Add from a preset</h3>
      <SectionState query={presets} what="the presets" skeleton="spinner">
        {(data) => (
          <ul className="grid gap-2 sm:grid-cols-2" aria-label="Agent presets">
            {data.map((preset) => (
              <li key={preset.preset} className="rounded-md border border-slate-200 p-3 dark:border-slate-800">
                <p className="text-sm font-medium">{preset.name}</p>
                <p className={`${muted} mb-2 text-xs`}>{preset.setup}</p>
                <button type="button" className={secondaryButton} disabled={create.isPending} onClick={() => addPreset(preset)}>
                  Add {preset.name}
                </button>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
    </section>
  );
}

/** Edits what a profile starts: the program, its arguments (one per line) and the variables it receives. */
