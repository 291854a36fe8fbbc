import { installationPayload, installationRepositoriesPayload } from "@/lib/github/client/schemas";

// What installation and installation_repositories deliveries mean for connected workspaces. The caller
// applies it to every workspace with this installation id (and, for repositories removed, the
// workspace whose repository is among them), showing `reason` where the connection is shown.

export type InstallationChange = {
  installation_id: number;
  /** The installation is gone or suspended: disconnect every workspace that uses it. */
  disconnect_installation: boolean;
  /** Repositories the installation no longer sees: disconnect a workspace connected to one of them. */
  repositories_removed: string[];
  repositories_added: string[];
  /** A person-readable sentence for the disconnected state, or null when nothing is lost. */
  reason: string | null;
};

export function installationChange(event: "installation" | "installation_repositories", payload: unknown): InstallationChange | null {
  if (event === "installation") {
    const parsed = installationPayload.safeParse(payload);
    if (!parsed.success) return null;
    const { action, installation, sender } = parsed.data;
    const lost = LOST[action];
    return {
      installation_id: installation.id,
      disconnect_installation: lost !== undefined,
      repositories_removed: [],
      repositories_added: action === "created" ? (parsed.data.repositories ?? []).map((repo) => repo.full_name) : [],
      reason: lost ? `The GitHub App was ${lost} by ${sender.login}` : null,
    };
  }
  const parsed = installationRepositoriesPayload.safeParse(payload);
  if (!parsed.success) return null;
  const { installation, sender, repositories_added, repositories_removed } = parsed.data;
  const removed = repositories_removed.map((repo) => repo.full_name);
  return {
    installation_id: installation.id,
    disconnect_installation: false,
    repositories_removed: removed,
    repositories_added: repositories_added.map((repo) => repo.full_name),
    reason: removed.length
      ? `${removed.join(", ")} ${removed.length === 1 ? "was" : "were"} removed from the GitHub App by ${sender.login}`
      : null,
  };
}

// installation actions that take access away, and how the reason words them.
const LOST: Partial<Record<string, string>> = { deleted: "uninstalled", suspend: "suspended" };
