/** A cached list with `item` in it: replacing the entry with the same id, or appended when new. */
export function upsertById<T extends { id: string }>(list: T[] | undefined, item: T): T[] {
  const old = list ?? [];
  return old.some((entry) => entry.id === item.id) ? old.map((entry) => (entry.id === item.id ? item : entry)) : [...old, item];
}
