"use client";

import { useState } from "react";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, KIND_LABELS } from "@/lib/notifications/kinds";
import {
  useNotificationSettings,
  useSaveNotificationSettings,
  type NotificationSettings,
  type NotificationSettingsState,
} from "@/lib/client/notifications";
import { NotificationDeliveries } from "@/components/settings/notification-deliveries";
import { PushDevice } from "@/components/settings/push-device";

// Settings › Notifications: the person's own preferences (not the workspace's): which kinds reach
// them on which channel, quiet hours in their time zone, a digest; and their recent deliveries.

const CHANNEL_LABELS = { in_app: "In app", push: "Push", email: "Email", slack: "Slack" } as const;

export function NotificationsSection() {
  const settings = useNotificationSettings();
  return (
    <section
      aria-labelledby="notifications-title"
      className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="notifications-title" className="mb-2 font-semibold">
        Notifications
      </h2>
      <SectionState query={settings} what="your notification settings">
        {(data) => <SettingsForm saved={data} />}
      </SectionState>
      <PushDevice />
      <NotificationDeliveries />
    </section>
  );
}

function SettingsForm({ saved }: { saved: NotificationSettingsState }) {
  const save = useSaveNotificationSettings();
  const { configured_channels: configured, ...initial } = saved;
  const [draft, setDraft] = useState<NotificationSettings>(initial);
  const toggle = (kind: (typeof NOTIFICATION_KINDS)[number], channel: (typeof NOTIFICATION_CHANNELS)[number]) =>
    setDraft({ ...draft, kinds: { ...draft.kinds, [kind]: { ...draft.kinds[kind], [channel]: !draft.kinds[kind][channel] } } });
  return (
    <form
      className="space-y-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft);
      }}
    >
      <div className="overflow-x-auto">
        <table className="w-full text-left">
          <caption className="sr-only">Which notifications reach you where</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Kind
              </th>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <th key={channel} scope="col" className="px-1 py-1 text-center font-medium">
                  {CHANNEL_LABELS[channel]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_KINDS.map((kind) => (
              <tr key={kind} className="border-t border-slate-200 dark:border-slate-800">
                <th scope="row" className="py-1 pr-2 font-normal">
                  {KIND_LABELS[kind]}
                </th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <td key={channel} className="px-1 text-center">
                    <input
                      type="checkbox"
                      aria-label={`${KIND_LABELS[kind]}: ${CHANNEL_LABELS[channel]}`}
                      checked={draft.kinds[kind][channel]}
                      onChange={() => toggle(kind, channel)}
                      className="h-5 w-5"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-slate-600 dark:text-slate-400">
        This server sends on: {configured.map((channel) => CHANNEL_LABELS[channel]).join(", ")}. The others take effect once an
        administrator sets them up.
      </p>
      <QuietHours draft={draft} onChange={setDraft} />
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={draft.digest} onChange={() => setDraft({ ...draft, digest: !draft.digest })} className="h-5 w-5" />
        Email me one digest instead of a message each
      </label>
      <button type="submit" className={secondaryButton} disabled={save.isPending}>
        {save.isPending ? "Saving…" : save.isSuccess ? "Saved" : "Save notification settings"}
      </button>
      <ErrorText>{save.error ? `Not saved: ${save.error.message}` : ""}</ErrorText>
    </form>
  );
}

function QuietHours({ draft, onChange }: { draft: NotificationSettings; onChange: (next: NotificationSettings) => void }) {
  const quiet = draft.quiet_hours;
  return (
    <fieldset className="space-y-2">
      <legend className="font-medium">Quiet hours (no push, email or Slack; the inbox still fills)</legend>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={quiet !== null}
          onChange={() => onChange({ ...draft, quiet_hours: quiet ? null : { start: "22:00", end: "07:00" } })}
          className="h-5 w-5"
        />
        Keep quiet hours
      </label>
      {quiet ? (
        <div className="flex flex-wrap gap-3">
          <label>
            From{" "}
            <input
              type="time"
              value={quiet.start}
              onChange={(e) => onChange({ ...draft, quiet_hours: { ...quiet, start: e.target.value } })}
              className={inputClass}
            />
          </label>
          <label>
            To{" "}
            <input
              type="time"
              value={quiet.end}
              onChange={(e) => onChange({ ...draft, quiet_hours: { ...quiet, end: e.target.value } })}
              className={inputClass}
            />
          </label>
        </div>
      ) : null}
      <label className="block">
        Time zone
        <input
          value={draft.time_zone}
          onChange={(e) => onChange({ ...draft, time_zone: e.target.value })}
          className={`${inputClass} max-w-64`}
        />
      </label>
    </fieldset>
  );
}
