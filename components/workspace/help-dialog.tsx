"use client";

import { Dialog } from "@/components/ui/dialog";

export const SHORTCUTS = [
  { keys: "n", action: "New task (quick add in Backlog)" },
  { keys: "/", action: "Search tasks (titles, descriptions, #number)" },
  { keys: "q", action: "Open or close the question panel" },
  { keys: "?", action: "This list of shortcuts" },
  { keys: "Space", action: "On a card: pick it up, then arrow keys move it, Space drops, Escape cancels" },
  { keys: "Enter", action: "On a card: open its details" },
  { keys: "x", action: "On a card: select it for a bulk move, assign or delete (or Shift/Ctrl-click)" },
  { keys: "Escape", action: "Close a dialog; clear the selection" },
];

export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <table className="w-full text-sm">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys} className="border-b border-slate-200 last:border-0 dark:border-slate-800">
              <th scope="row" className="py-2 pr-4 text-left align-top font-normal">
                <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                  {shortcut.keys}
                </kbd>
              </th>
              <td className="py-2">{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
