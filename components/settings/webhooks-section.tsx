"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Webhook } from "@/lib/client/types";
import { useCreateWebhook, useDeleteWebhook, useUpdateWebhook, webhooksQuery } from "@/lib/client/webhooks";
import { DELIVERABLE_EVENT_TYPES } from "@/lib/events/event-types";
import { ALL_EVENTS } from "@/lib/webhooks/statuses";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { ShownOnce } from "@/components/ui/shown-once";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";
import { SectionState } from "@/components/ui/section-state";
import { Deliveries } from "@/components/settings/webhook-deliveries";
import { ConfirmDelete } from "@/components/ui/confirm-delete";

// Settings → Webhooks (owners): endpoints, the secret shown once, and each endpoint's recent
// deliveries with "Redeliver" (docs/webhooks.md).

const muted = "text-slate-600 dark:text-slate-400";

export function WebhooksSection({ workspaceId, isOwner }: { workspaceId: string; isOwner: boolean }) {
  const hooks = useQuery({ ...webhooksQuery(workspaceId, isOwner), refetchInterval: 15_000 });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  return (
    <section aria-labelledby="webhooks-title" className={card}>
      <h2 id="webhooks-title" className="mb-1 font-semibold">
        Webhooks
      </h2>
      <p className={`mb-3 text-sm ${muted}`}>
        Each event of this workspace (tasks, questions, runs) is POSTed as JSON to your endpoints, in order, signed with the endpoint&apos;s
        secret (header X-Taskboard-Signature-256). Failed deliveries are retried for about a day.
      </p>
      {!isOwner ? (
        <p className={`text-sm ${muted}`}>Only owners of this workspace manage its webhooks.</p>
      ) : (
        <>
          <AddWebhookForm workspaceId={workspaceId} onSecret={setSecret} />
          {secret ? <SecretOnce {...secret} onDone={() => setSecret(null)} /> : null}
          <SectionState query={hooks} what="the webhooks" empty="No webhooks yet." emptyClassName={`text-sm ${muted}`}>
            {(data) => (
              <ul className="space-y-3" aria-label="Webhook endpoints">
                {data.map((hook) => (
                  <WebhookItem key={hook.id} workspaceId={workspaceId} hook={hook} />
                ))}
              </ul>
            )}
          </SectionState>
        </>
      )}
    </section>
  );
}

function AddWebhookForm({ workspaceId, onSecret }: { workspaceId: string; onSecret: (shown: { url: string; secret: string }) => void }) {
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const create = useCreateWebhook(workspaceId);
  const toast = useToast();
  const events = all ? [ALL_EVENTS] : types;
  return (
    <form
      className="mb-4 space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800"
      aria-label="Add a webhook"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { url: url.trim(), description: description.trim(), events: events as never },
          {
            onSuccess: (created) => {
              setUrl("");
              setDescription("");
              if (created.secret) onSecret({ url: created.url, secret: created.secret });
              else toast("Webhook added");
            },
          },
        );
      }}
    >
      <div className="flex flex-wrap gap-2">
        <label className="min-w-64 flex-1 text-sm font-medium">
          Payload URL
          <input
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/taskboard-hook"
            className={inputClass}
          />
        </label>
        <label className="min-w-48 flex-1 text-sm font-medium">
          Description (optional)
          <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} className={inputClass} />
        </label>
      </div>
      <fieldset className="text-sm">
        <legend className="mb-1 font-medium">Events</legend>
        <label className="mr-4 inline-flex items-center gap-1.5">
          <input type="radio" name="webhook-events" checked={all} onChange={() => setAll(true)} />
          All events
        </label>
        <label className="inline-flex items-center gap-1.5">
          <input type="radio" name="webhook-events" checked={!all} onChange={() => setAll(false)} />
          Only these:
        </label>
        {!all ? (
          <div className="mt-2 grid grid-cols-2 gap-1 sm:grid-cols-3">
            {DELIVERABLE_EVENT_TYPES.map((type) => (
              <label key={type} className="inline-flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={(e) => setTypes((old) => (e.target.checked ? [...old, type] : old.filter((t) => t !== type)))}
                />
                <code className="text-xs">{type}</code>
              </label>
            ))}
          </div>
        ) : null}
      </fieldset>
      <p className={`text-xs ${muted}`}>A signing secret is generated and shown once.</p>
      <ErrorText>{create.error ? `Not added: ${create.error.message}` : ""}</ErrorText>
      <button type="submit" className={primaryButton} disabled={create.isPending || !url.trim() || events.length === 0}>
        {create.isPending ? "Adding…" : "Add webhook"}
      </button>
    </form>
  );
}

function SecretOnce({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <ShownOnce
      className="mb-4"
      message={`Copy the signing secret for ${url} now: it is shown only once.`}
      value={secret}
      label="Webhook signing secret"
      what="the secret"
      onDone={onDone}
    />
  );
}

function WebhookItem({ workspaceId, hook }: { workspaceId: string; hook: Webhook }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateWebhook(workspaceId, hook.id);
  const remove = useDeleteWebhook(workspaceId, hook.id);
  const toast = useToast();
  const panelId = `webhook-deliveries-${hook.id}`;
  return (
    <li className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800" data-testid="webhook-item">
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all font-medium">{hook.url}</code>
        <span
          className={`rounded px-1.5 py-0.5 text-xs ${hook.enabled ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" : "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200"}`}
        >
          {hook.enabled ? "Enabled" : "Disabled"}
        </span>
      </div>
      {hook.description ? <p className="mt-1">{hook.description}</p> : null}
      <p className={`mt-1 text-xs ${muted}`}>
        Events: {hook.events.includes(ALL_EVENTS) ? "all" : hook.events.join(", ")} · secret {hook.secret_hint}
      </p>
      {hook.disabled_reason ? (
        <p className="mt-1 text-sm text-red-800 dark:text-red-300" data-testid="webhook-disabled-reason">
          {hook.disabled_reason}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={secondaryButton} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          {open ? "Hide deliveries" : "Recent deliveries"}
        </button>
        <button
          type="button"
          className={secondaryButton}
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { enabled: !hook.enabled },
              { onSuccess: (saved) => toast(saved.enabled ? "Webhook enabled" : "Webhook disabled") },
            )
          }
        >
          {hook.enabled ? "Disable" : "Enable"}
        </button>
        <ConfirmDelete
          label={`Delete webhook ${hook.url}`}
          confirmLabel="Delete this webhook"
          pending={remove.isPending}
          onDelete={() => remove.mutate(undefined, { onSuccess: () => toast("Webhook deleted") })}
        />
      </div>
      <ErrorText>{update.error?.message ?? remove.error?.message}</ErrorText>
      {open ? (
        <div id={panelId}>
          <Deliveries workspaceId={workspaceId} webhookId={hook.id} />
        </div>
      ) : null}
    </li>
  );
}
