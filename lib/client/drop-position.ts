import type { ColumnSort } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// Where a dropped card lands, as the move operation wants it: the column and the two neighbours in
// position order (after_id has the lower position, before_id the higher; null is the column's end).
// Pure, so the arithmetic of same and other column, both sort directions and partly loaded columns
// is tested without a browser.

export interface DropInput {
  /** The dragged card and the column it came from. */
  taskId: string;
  from: ColumnKey;
  /** What it was dropped on: a card (in its column) or a column's empty space. */
  target: { type: "card"; taskId: string; column: ColumnKey } | { type: "column"; column: ColumnKey };
  /** The target column's sort and its loaded cards in display order. */
  sort: ColumnSort;
  loadedIds: readonly string[];
  /** The target column has cards past the loaded ones. */
  hasMore: boolean;
  /** Onto a card of another column: the dragged card's centre is below the centre of the card it is over. */
  belowTarget: boolean;
}

export type Drop =
  /** Move: `index` is where the card shows in the target column's loaded list (display order). */
  | { type: "move"; column: ColumnKey; after_id: string | null; before_id: string | null; index: number | null }
  /** Dropped within a column sorted by something other than position: there is no order to change. */
  | { type: "not-in-board-order"; column: ColumnKey }
  /** Dropped where it was, or on nothing that changes anything. */
  | { type: "none" };

export function dropPosition(input: DropInput): Drop {
  const { taskId, from, target, sort, loadedIds, hasMore } = input;
  const column = target.column;
  if (sort.by !== "position") {
    // Where it lands in another order is the server's to say.
    if (from === column) return { type: "not-in-board-order", column };
    return { type: "move", column, after_id: null, before_id: null, index: null };
  }
  const without = loadedIds.filter((id) => id !== taskId);
  let index: number;
  if (target.type === "card") {
    const overIndex = loadedIds.indexOf(target.taskId);
    if (overIndex < 0 || target.taskId === taskId) return { type: "none" };
    // Same column: the card takes the place of the one it is over (arrayMove semantics); another
    // column: above or below that card, whichever half the dragged card's centre is in.
    index = from === column ? overIndex : overIndex + (input.belowTarget ? 1 : 0);
  } else {
    if (from === column) return { type: "none" };
    // The column's end is not loaded yet: the top is the only place known to be on screen.
    index = hasMore ? 0 : without.length;
  }
  index = Math.min(index, without.length);
  const above = without[index - 1] ?? null;
  const below = without[index] ?? null;
  // Descending: shown above means a higher position.
  return sort.dir === "desc"
    ? { type: "move", column, after_id: below, before_id: above, index }
    : { type: "move", column, after_id: above, before_id: below, index };
}
