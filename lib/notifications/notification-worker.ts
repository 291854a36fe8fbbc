import type { Db } from "@/lib/db/client";
import { startLogConsumer } from "@/lib/events/consume-log";
import { escalateOneQuestion, msUntilNextEscalation } from "@/lib/notifications/escalate-questions";
import { msUntilNextDelivery, sendOneDelivery } from "@/lib/notifications/send-deliveries";
import { onNotificationNudge } from "@/lib/notifications/nudge-worker";

// The notifications' timed work, on the event-log consumer's loop (lib/events/consume-log.ts): it
// wakes on events (a new question, a changed escalation setting; a burst of them settles into one
// round) and when the next escalation or delivery retry falls due. Turning events into
// notifications is the notify reactions' work (lib/reactions/notify-people.ts, notify-runs.ts);
// this escalates unanswered questions and sends the deliveries of the channels that need a sender.
// Every step is a row in the database, so a restart or another instance carries on, and nothing
// here runs in a request.

export function startNotificationWorker(db: Db): () => void {
  return startLogConsumer({
    name: "notifications",
    lanes: () => 1,
    workOnce: async () => (await escalateOneQuestion(db)) || (await sendOneDelivery(db)),
    onNudge: onNotificationNudge,
    settles: true,
    msUntilNextAttempt: async () => {
      const waits = (await Promise.all([msUntilNextEscalation(db), msUntilNextDelivery(db)])).filter((ms): ms is number => ms !== null);
      return waits.length ? Math.min(...waits) : null;
    },
  });
}
