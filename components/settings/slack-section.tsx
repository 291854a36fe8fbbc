"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { slackStatusQuery, useSetSlackChannel } from "@/lib/client/slack";
import type { SlackStatus } from "@/lib/client/types";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { card } from "@/components/settings/settings-card";

// Settings › Slack (owners): the channel agents' questions go to, and whether the server's Slack app
// works. People answer there with a click or a reply in the question's thread (docs/slack.md).

export function SlackSection({ workspaceId }: { workspaceId: string }) {
  const status = useQuery(slackStatusQuery(workspaceId));
  return (
    <section aria-labelledby="slack-title" className={card}>
      <h2 id="slack-title" className="mb-2 font-semibold">
        Slack
      </h2>
      <SectionState query={status} what="the Slack app's state">
        {(data) => <SlackForm key={data.channel ?? ""} workspaceId={workspaceId} status={data} />}
      </SectionState>
    </section>
  );
}

function SlackForm({ workspaceId, status }: { workspaceId: string; status: SlackStatus }) {
  const save = useSetSlackChannel(workspaceId);
  const [channel, setChannel] = useState(status.channel ?? "");
  const [wrong, setWrong] = useState(false);
  return (
    <form
      className="text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const id = channel.trim();
        // The API's 422 names the pattern; a person gets what a channel id looks like instead.
        setWrong(id !== "" && !CHANNEL_ID.test(id));
        if (id === "" || CHANNEL_ID.test(id)) save.mutate(id || null);
      }}
    >
      <p className="mb-2" role="status">
        {stateInWords(status)}
      </p>
      <label className="block font-medium" htmlFor="slack-channel">
        Channel id for agents&apos; questions (empty: none)
      </label>
      <div className="flex flex-wrap items-end gap-2">
        <input
          id="slack-channel"
          value={channel}
          onChange={(event) => setChannel(event.target.value)}
          aria-invalid={wrong}
          placeholder="C0123ABCD"
          disabled={save.isPending}
          className={`${inputClass} max-w-56`}
        />
        <button type="submit" className={secondaryButton} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Invite the app to the channel first. People answer with the question&apos;s buttons or by replying in its thread; Slack finds them
        by the email address in their profile.
      </p>
      <ErrorText>
        {wrong
          ? "Not saved: a channel id looks like C0123ABCD, not a name (the channel's details in Slack show it)."
          : save.error
            ? `Not saved: ${save.error.message}`
            : ""}
      </ErrorText>
    </form>
  );
}

const CHANNEL_ID = /^[CG][A-Z0-9]{2,30}$/;

function stateInWords(status: SlackStatus): string {
  if (!status.configured) return "This server has no Slack app: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (docs/slack.md).";
  if (status.error) return `Slack refuses the app's token: ${status.error}.`;
  const people = status.linked_members === 1 ? "1 member" : `${status.linked_members} members`;
  return `Connected to Slack workspace ${status.team_id}. ${people} can answer from Slack so far.`;
}
