import { publicUrl } from "@/lib/config";

/** Where a notification's task is on the board (PUBLIC_URL), for a message sent outside it; null without PUBLIC_URL. */
export function boardLink(notification: { workspaceId: string; taskId: string | null }): string | null {
  const base = publicUrl();
  if (!base) return null;
  const task = notification.taskId ? `?task=${encodeURIComponent(notification.taskId)}` : "";
  return new URL(`/w/${notification.workspaceId}${task}`, base).toString();
}
