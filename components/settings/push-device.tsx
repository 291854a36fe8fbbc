"use client";

import { ErrorText, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { useDisablePush, useEnablePush, usePushDevice, type PushDeviceState } from "@/lib/client/push";

// Settings › Notifications: browser push on this device. Each browser subscribes on its own, so
// this says what this one can do, in words, and counts the person's other subscribed browsers.

const STATE_WORDS: Record<PushDeviceState, string> = {
  unsupported: "This browser has no push support. On an iPhone or iPad, add the board to the Home Screen first, then open it from there.",
  insecure: "Push needs the board to be opened over https (or on localhost).",
  denied: "Notifications are blocked for this site in the browser's settings. Allow them there, then come back.",
  subscribed: "Push is on for this device.",
  off: "Push is off for this device.",
};

export function PushDevice() {
  const device = usePushDevice();
  return (
    <div className="mt-4 space-y-2 border-t border-slate-200 pt-4 text-sm dark:border-slate-800" data-testid="push-device">
      <h3 className="font-medium">Browser push</h3>
      <SectionState query={device} what="push on this device">
        {(data) => <PushControl state={data.state} publicKey={data.public_key} count={data.subscriptions.length} />}
      </SectionState>
    </div>
  );
}

function PushControl({ state, publicKey, count }: { state: PushDeviceState; publicKey: string; count: number }) {
  const enable = useEnablePush();
  const disable = useDisablePush();
  const others = count - (state === "subscribed" ? 1 : 0);
  return (
    <>
      <p role="status">{STATE_WORDS[state]}</p>
      {others > 0 ? (
        <p className="text-slate-600 dark:text-slate-400">
          {others === 1 ? "One other device receives" : `${others} other devices receive`} your push notifications.
        </p>
      ) : null}
      {state === "off" ? (
        <button
          type="button"
          className={`${secondaryButton} min-h-11`}
          disabled={enable.isPending}
          onClick={() => enable.mutate(publicKey)}
        >
          {enable.isPending ? "Enabling…" : "Enable push on this device"}
        </button>
      ) : null}
      {state === "subscribed" ? (
        <button type="button" className={`${secondaryButton} min-h-11`} disabled={disable.isPending} onClick={() => disable.mutate()}>
          {disable.isPending ? "Turning off…" : "Turn off push on this device"}
        </button>
      ) : null}
      <ErrorText>{enable.error ? `Push not enabled: ${enable.error.message}` : disable.error ? disable.error.message : ""}</ErrorText>
    </>
  );
}
