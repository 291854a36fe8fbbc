"use client";

import { useState } from "react";
import type { AgentProfile, AgentUpdate } from "@/lib/client/agents";
import { inputClass, primaryButton, secondaryButton } from "@/components/ui/field";

// Editing one agent profile: its program, what it passes through, where its sandbox lets it connect
// and which runner labels its runs need (docs/runners.md), and what a person sets in their agent (model, system prompt addition), which
// the shipped presets write into the agent's own configuration (docs/agents.md).

export function AgentEditForm({
  agent,
  pending,
  onSave,
  onCancel,
}: {
  agent: AgentProfile;
  pending: boolean;
  onSave: (change: AgentUpdate) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(agent.name);
  const [kind, setKind] = useState(agent.kind);
  const [command, setCommand] = useState(agent.command);
  const [args, setArgs] = useState(agent.args.join("\n"));
  const [env, setEnv] = useState(agent.env_passthrough.join(", "));
  const [model, setModel] = useState(agent.model ?? "");
  const [systemPrompt, setSystemPrompt] = useState(agent.system_prompt ?? "");
  const [allow, setAllow] = useState(agent.network_allow.join(", "));
  const [network, setNetwork] = useState(agent.network);
  const [labels, setLabels] = useState(agent.labels.join(", "));
  return (
    <form
      aria-label={`Edit ${agent.name}`}
      className="grid w-full grid-cols-2 gap-x-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSave({
          id: agent.id,
          name: name.trim(),
          kind,
          command: command.trim(),
          args: args.split("\n").filter((line) => line.trim() !== ""),
          env_passthrough: env
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean),
          model: model.trim() || null,
          system_prompt: systemPrompt.trim() ? systemPrompt : null,
          network_allow: allow
            .split(/[,\s]+/)
            .map((item) => item.trim())
            .filter(Boolean),
          network,
          labels: labels
            .split(/[,\s]+/)
            .map((item) => item.trim())
            .filter(Boolean),
        });
      }}
    >
      <label className="mb-2 block text-sm font-medium">
        Name
        <input required value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Protocol
        <select value={kind} onChange={(e) => setKind(e.target.value as AgentProfile["kind"])} className={inputClass}>
          <option value="acp">Agent Client Protocol</option>
          <option value="command">Command (instructions on stdin)</option>
        </select>
      </label>
      <label className="col-span-2 mb-2 block text-sm font-medium">
        Command
        <input required value={command} onChange={(e) => setCommand(e.target.value)} className={`${inputClass} font-mono`} />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Arguments (one per line)
        <textarea rows={3} value={args} onChange={(e) => setArgs(e.target.value)} className={`${inputClass} font-mono`} />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Environment passed through (comma-separated names)
        <input value={env} onChange={(e) => setEnv(e.target.value)} className={`${inputClass} font-mono`} />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Model (empty: the agent&apos;s default)
        <input value={model} onChange={(e) => setModel(e.target.value)} className={`${inputClass} font-mono`} placeholder="e.g. opus" />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Added to the agent&apos;s system prompt
        <textarea rows={3} value={systemPrompt} onChange={(e) => setSystemPrompt(e.target.value)} className={inputClass} />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Hosts it may reach (comma-separated, host or host:port)
        <input
          value={allow}
          onChange={(e) => setAllow(e.target.value)}
          className={`${inputClass} font-mono`}
          placeholder="e.g. api.anthropic.com"
        />
      </label>
      <label className="mb-2 block text-sm font-medium">
        Network
        <select value={network} onChange={(e) => setNetwork(e.target.value as AgentProfile["network"])} className={inputClass}>
          <option value="allowlist">The board and the hosts listed</option>
          <option value="full">Full network (this machine&apos;s ports too)</option>
        </select>
      </label>
      <label className="col-span-2 mb-2 block text-sm font-medium">
        Runner labels it needs (comma-separated; empty: any runner)
        <input
          value={labels}
          onChange={(e) => setLabels(e.target.value)}
          className={`${inputClass} font-mono`}
          placeholder="e.g. docker, gpu"
        />
      </label>
      <div className="col-span-2 flex gap-2">
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? "Saving…" : "Save profile"}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
