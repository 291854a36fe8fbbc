"use client";

import { useQuery } from "@tanstack/react-query";
import { connectedAppsQuery, useDisconnectApp } from "@/lib/client/connected-apps";
import { formatDateTime } from "@/lib/client/dates";
import { ErrorText } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { ConfirmDelete } from "@/components/ui/confirm-delete";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";

// The programs (Claude Code, an IDE…) the person signed in to the MCP server through the browser.
// Each acts as them in every workspace they belong to, so each can be ended here.

const muted = "text-xs text-slate-600 dark:text-slate-400";

export function ConnectedAppsSection() {
  const apps = useQuery(connectedAppsQuery());
  const disconnect = useDisconnectApp();
  const toast = useToast();
  return (
    <section aria-labelledby="connected-apps-title" className={card}>
      <h2 id="connected-apps-title" className="mb-1 font-semibold">
        Connected apps
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Programs you allowed to use the board&apos;s MCP server as you, by signing in through the browser (docs/mcp.md).
      </p>
      <SectionState query={apps} what="your connected apps" empty="No apps connected. An MCP client that signs in as you shows up here.">
        {(list) => (
          <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((app) => (
              <li key={app.client_id} aria-label={app.name} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{app.name}</p>
                  <p className={muted}>
                    {app.redirect_hosts.length ? `Returns to ${app.redirect_hosts.join(", ")} · ` : ""}
                    connected {formatDateTime(app.connected_at)} ·{" "}
                    {app.last_used_at ? `last used ${formatDateTime(app.last_used_at)}` : "not used in the last 30 days"}
                  </p>
                </div>
                <ConfirmDelete
                  label={`Disconnect ${app.name}`}
                  confirmLabel={`Disconnect ${app.name}`}
                  verb="Disconnect"
                  busy="Disconnecting…"
                  warning="It stops working at once, until you allow it again."
                  pending={disconnect.isPending && disconnect.variables === app.client_id}
                  onDelete={() => disconnect.mutate(app.client_id, { onSuccess: () => toast(`Disconnected ${app.name}.`) })}
                />
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <ErrorText>{disconnect.error ? `Not disconnected: ${disconnect.error.message}` : ""}</ErrorText>
    </section>
  );
}
