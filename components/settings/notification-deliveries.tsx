"use client";

import { SectionState } from "@/components/ui/section-state";
import { useDeliveries } from "@/lib/client/notifications";
import { timeAgo } from "@/lib/client/relative-time";

/** The person's newest deliveries, each channel's own, with its attempts and why the last one failed. */
export function NotificationDeliveries() {
  const deliveries = useDeliveries();
  return (
    <div className="mt-6">
      <h3 className="mb-2 text-sm font-semibold">Recent deliveries</h3>
      <SectionState
        query={deliveries}
        what="your deliveries"
        empty={<p className="text-sm text-slate-600 dark:text-slate-400">Nothing delivered yet.</p>}
      >
        {(items) => (
          <ul aria-label="Deliveries" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {items.map((delivery) => (
              <li key={delivery.id} className="py-2">
                <p className="truncate font-medium">{delivery.title}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {delivery.channel.replace("_", "-")} · {delivery.status} · {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}{" "}
                  · {timeAgo(delivery.created_at)}
                  {delivery.last_error ? ` · ${delivery.last_error}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
    </div>
  );
}
