"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  useCodehostStatus,
  useConnectCodehost,
  useDisconnectCodehost,
  useGithubRepositories,
  useLastGithubDelivery,
  useStartGithubInstall,
} from "@/lib/client/codehost";
import type { CodehostStatus } from "@/lib/client/types";
import { workspaceQuery } from "@/lib/client/workspaces";
import { codehostLabel } from "@/components/workspace/codehost-badge";
import { GithubAutomationSettings } from "@/components/github/github-automation-settings";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { card } from "@/components/settings/settings-card";
import { SectionState } from "@/components/ui/section-state";
import { formatDateTime } from "@/lib/client/dates";

const note = "text-sm text-slate-600 dark:text-slate-400";

// Settings → Code host. Owners connect through GitHub (Connect GitHub, then a repository of the
// installation GitHub vouched for); there is no field to type an installation id: only server
// administrators may name one, with PUT …/codehost (docs/github.md).
export function CodehostSection({ workspaceId }: { workspaceId: string }) {
  const status = useCodehostStatus(workspaceId);
  const disconnect = useDisconnectCodehost(workspaceId);
  const workspace = useQuery(workspaceQuery(workspaceId));
  const isOwner = workspace.data?.role === "owner";
  return (
    <section aria-labelledby="codehost-title" className={card}>
      <h2 id="codehost-title" className="mb-2 font-semibold">
        Code host
      </h2>
      <SectionState query={status} what="the connection">
        {(data) => (
          <>
            <p className="mb-3 text-sm" data-testid="codehost-settings-status">
              {data.connected ? (
                <>
                  Connected to <strong>{data.repo}</strong>
                  {data.installation_id !== null ? ` (installation ${data.installation_id})` : null}
                </>
              ) : (
                codehostLabel(data)
              )}
            </p>
            {data.reason ? (
              <p className="mb-3 text-sm text-red-800 dark:text-red-300" data-testid="codehost-disconnect-reason">
                Disconnected by GitHub: {data.reason}
              </p>
            ) : null}
            {data.connected ? (
              <button type="button" className={secondaryButton} onClick={() => disconnect.mutate()} disabled={disconnect.isPending}>
                Disconnect
              </button>
            ) : (
              <NotConnected workspaceId={workspaceId} status={data} isOwner={isOwner} />
            )}
            <ErrorText>{disconnect.error?.message}</ErrorText>
            {isOwner ? <LastDelivery workspaceId={workspaceId} /> : null}
            {data.connected ? <GithubAutomationSettings workspaceId={workspaceId} canEdit={isOwner} /> : null}
          </>
        )}
      </SectionState>
    </section>
  );
}

/** What the server lacks, in words, or (for owners) Connect GitHub and the repository picker. */
function NotConnected({ workspaceId, status, isOwner }: { workspaceId: string; status: CodehostStatus; isOwner: boolean }) {
  const ready = status.app_configured && status.oauth_configured;
  const connect = useConnectCodehost(workspaceId);
  const install = useStartGithubInstall(workspaceId);
  const repositories = useGithubRepositories(workspaceId, isOwner && ready);
  if (!status.app_configured) {
    return (
      <p className={note}>
        The server has no GitHub App credentials (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY). Ask the administrator to set them, then connect
        a repository here.
      </p>
    );
  }
  if (!status.oauth_configured) {
    return (
      <p className={note} data-testid="codehost-oauth-missing">
        Connecting GitHub needs the App&apos;s client id and secret on the server (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET), so the board
        can ask GitHub who installed the App. Ask the administrator to set them.
      </p>
    );
  }
  if (!isOwner) return <p className={note}>An owner of this workspace can connect GitHub.</p>;
  return (
    <div className="mb-4 space-y-3">
      <button type="button" className={primaryButton} onClick={() => install.mutate()} disabled={install.isPending}>
        Connect GitHub
      </button>
      {repositories.data ? (
        <RepositoryPicker
          repositories={repositories.data.items.map((item) => item.full_name)}
          pending={connect.isPending}
          onPick={(picked) => connect.mutate({ repo: picked })}
        />
      ) : null}
      <ErrorText>{connect.error?.message ?? install.error?.message}</ErrorText>
    </div>
  );
}

function RepositoryPicker({ repositories, pending, onPick }: { repositories: string[]; pending: boolean; onPick: (repo: string) => void }) {
  const [picked, setPicked] = useState("");
  if (repositories.length === 0) return <p className="text-sm">The installation sees no repositories yet: add some on GitHub.</p>;
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (picked) onPick(picked);
      }}
    >
      <label className="text-sm font-medium">
        Repository
        <select required value={picked} onChange={(e) => setPicked(e.target.value)} className={inputClass}>
          <option value="">Pick a repository…</option>
          {repositories.map((repo) => (
            <option key={repo} value={repo}>
              {repo}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={primaryButton} disabled={pending || !picked}>
        Use this repository
      </button>
    </form>
  );
}

// Owners see how the last webhook delivery ended, so a failing one does not go unnoticed.
function LastDelivery({ workspaceId }: { workspaceId: string }) {
  const last = useLastGithubDelivery(workspaceId, true);
  if (!last.data) return null;
  const { event, action, received_at, result, error } = last.data;
  return (
    <p className="mt-3 text-sm text-slate-700 dark:text-slate-300" data-testid="codehost-last-delivery">
      Last webhook: {action ? `${event}.${action}` : event} at {formatDateTime(received_at)} —{" "}
      {error ? <span className="text-red-800 dark:text-red-300">failed: {error}</span> : (result ?? "received")}
    </p>
  );
}
