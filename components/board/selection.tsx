"use client";

import { createContext, useCallback, useContext, useMemo, useState } from "react";
import type { Card } from "@/lib/client/types";

// Which cards are selected for a bulk change (Shift/Ctrl/Cmd-click or `x` on a focused card), as
// the cards were when picked; the bulk change reads each one's latest state from the cache.

interface Selection {
  selected: ReadonlyMap<string, Card>;
  toggle: (task: Card) => void;
  clear: () => void;
}

const SelectionContext = createContext<Selection>({ selected: new Map(), toggle: () => {}, clear: () => {} });

export function SelectionProvider({ children }: { children: React.ReactNode }) {
  const [selected, setSelected] = useState<ReadonlyMap<string, Card>>(new Map());
  const toggle = useCallback(
    (task: Card) =>
      setSelected((old) => {
        const next = new Map(old);
        if (next.has(task.id)) next.delete(task.id);
        else next.set(task.id, task);
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected(new Map()), []);
  const value = useMemo(() => ({ selected, toggle, clear }), [selected, toggle, clear]);
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  return useContext(SelectionContext);
}
