// Keeping the keyboard on a card that React re-creates: after a keyboard drop the card is a new
// element in its new column, and again when the server's answer or the live event re-renders the
// column. For a moment after the drop, whenever that card appears while the focus has fallen to the
// page's body, it takes the focus back.

const WINDOW_MS = 2000;
let wanted: { taskId: string; until: number } | null = null;

export function keepFocusOnCard(taskId: string) {
  wanted = { taskId, until: Date.now() + WINDOW_MS };
  requestAnimationFrame(() => refocusCard(taskId));
}

/** Called when a card appears: focuses it when it is the one wanted and nothing else has the focus. */
export function refocusCard(taskId: string) {
  if (!wanted || wanted.taskId !== taskId || Date.now() > wanted.until) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.closest(`[data-task-id]`)?.getAttribute("data-task-id") !== taskId) return;
  document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(taskId)}"]`)?.focus();
}
