"use client";

import type { WebhookDelivery } from "@/lib/client/types";
import { useRedeliver, useWebhookDeliveries } from "@/lib/client/webhooks";
import { DELIVERY_STATUS, type DeliveryStatus } from "@/lib/webhooks/statuses";
import { ErrorText, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { useToast } from "@/components/ui/toast";
import { formatDateTime, formatTime } from "@/lib/client/dates";

const muted = "text-slate-600 dark:text-slate-400";

/** An endpoint's recent deliveries: status, the outcome in words, the body sent, and "Redeliver". */
export function Deliveries({ workspaceId, webhookId }: { workspaceId: string; webhookId: string }) {
  const deliveries = useWebhookDeliveries(workspaceId, webhookId);
  const redeliver = useRedeliver(workspaceId, webhookId);
  const toast = useToast();
  return (
    <SectionState
      query={deliveries}
      what="the deliveries"
      skeleton="spinner"
      isEmpty={(data) => data.items.length === 0}
      empty="No deliveries yet: they appear here as events happen."
      emptyClassName={`mt-2 text-sm ${muted}`}
    >
      {(data) => (
        <>
          <ErrorText>{redeliver.error ? `Not redelivered: ${redeliver.error.message}` : ""}</ErrorText>
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Recent deliveries">
            {data.items.map((delivery) => (
              <li key={delivery.id} className="py-2" data-testid="webhook-delivery">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <StatusBadge status={delivery.status} />
                  <span className="font-medium">{delivery.event_type ?? "gap"}</span>
                  {delivery.event_id ? <span className={muted}>event #{delivery.event_id}</span> : null}
                  {delivery.redelivery_of ? <span className={muted}>redelivery</span> : null}
                  <span className={muted}>{describeOutcome(delivery)}</span>
                  <span className="ml-auto flex items-center gap-3">
                    <span className={`text-xs ${muted}`}>{formatDateTime(delivery.created_at)}</span>
                    {delivery.status !== DELIVERY_STATUS.skipped ? (
                      <button
                        type="button"
                        className={secondaryButton}
                        disabled={redeliver.isPending}
                        onClick={() => redeliver.mutate(delivery.id, { onSuccess: () => toast("Redelivery queued") })}
                        aria-label={`Redeliver ${delivery.event_type} event ${delivery.event_id}`}
                      >
                        Redeliver
                      </button>
                    ) : null}
                  </span>
                </div>
                {delivery.error ? <p className="mt-1 text-xs text-red-800 dark:text-red-300">{delivery.error}</p> : null}
                {delivery.request_body ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs">Request body</summary>
                    <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-950">
                      {pretty(delivery.request_body)}
                    </pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </SectionState>
  );
}

const STATUS_STYLE: Record<DeliveryStatus, string> = {
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  succeeded: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  skipped: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
};

function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[status]}`}>{status}</span>;
}

function describeOutcome(delivery: WebhookDelivery): string {
  if (delivery.attempts === 0) return delivery.status === DELIVERY_STATUS.skipped ? "" : "not sent yet";
  const code = delivery.response_code === null ? "no answer" : `HTTP ${delivery.response_code}`;
  const tries = delivery.attempts === 1 ? "1 attempt" : `${delivery.attempts} attempts`;
  const next =
    delivery.status === DELIVERY_STATUS.pending && delivery.next_attempt_at ? `, next ${formatTime(delivery.next_attempt_at)}` : "";
  return `${code} in ${delivery.duration_ms} ms · ${tries}${next}`;
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
