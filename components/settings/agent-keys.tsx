"use client";

import { useState } from "react";
import { useAgentPresets, useSetAgentKey, type AgentProfile } from "@/lib/client/agents";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

const muted = "text-xs text-slate-600 dark:text-slate-400";

// Under a profile: whether its runs can start (in words), the model keys stored on it (names only:
// a stored value is never shown again), and a form that stores one. Owners store keys; the server
// refuses others in words.

export function AgentKeys({ workspaceId, agent }: { workspaceId: string; agent: AgentProfile }) {
  const presets = useAgentPresets(workspaceId);
  const wanted = presets.data?.find((preset) => preset.preset === agent.preset)?.key ?? "";
  const [name, setName] = useState<string | null>(null);
  const [value, setValue] = useState("");
  const setKey = useSetAgentKey(workspaceId, agent.id);
  const toast = useToast();
  const keyName = (name ?? wanted).trim();

  return (
    <div className="basis-full text-sm" data-testid="agent-readiness">
      {agent.readiness.ready ? (
        <p className="text-xs text-green-800 dark:text-green-300">Ready to run</p>
      ) : (
        <ul className="text-xs text-red-800 dark:text-red-300" aria-label={`Why ${agent.name} cannot run yet`}>
          {agent.readiness.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {agent.stored_keys.length > 0 ? (
        <ul className="mt-1 flex flex-wrap gap-2" aria-label={`Keys stored on ${agent.name}`}>
          {agent.stored_keys.map((stored) => (
            <li key={stored} className="flex items-center gap-1 rounded bg-slate-100 px-2 py-0.5 font-mono text-xs dark:bg-slate-800">
              {stored} <span className="font-sans text-slate-600 dark:text-slate-400">stored</span>
              <button
                type="button"
                className="ml-1 underline"
                aria-label={`Remove ${stored} from ${agent.name}`}
                disabled={setKey.isPending}
                onClick={() => setKey.mutate({ name: stored, value: null }, { onSuccess: () => toast(`Removed ${stored}`) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="mt-2 flex flex-wrap items-end gap-2"
        aria-label={`Store a key on ${agent.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          setKey.mutate(
            { name: keyName, value },
            {
              onSuccess: () => {
                setValue("");
                toast(`${keyName} stored on ${agent.name}; it will not be shown again`);
              },
            },
          );
        }}
      >
        <label className={`${muted} block`}>
          Key name
          <input
            value={name ?? wanted}
            onChange={(e) => setName(e.target.value)}
            placeholder="ANTHROPIC_API_KEY"
            className={`${inputClass} font-mono`}
          />
        </label>
        <label className={`${muted} block min-w-48 flex-1`}>
          Value (sealed, passed only to this profile&apos;s runs)
          <input type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} className={inputClass} />
        </label>
        <button type="submit" className={secondaryButton} disabled={!keyName || !value || setKey.isPending}>
          {setKey.isPending ? "Storing…" : "Store key"}
        </button>
      </form>
      <ErrorText>{setKey.error ? `Not stored: ${setKey.error.message}` : ""}</ErrorText>
    </div>
  );
}
