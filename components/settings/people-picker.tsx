"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useId, useState } from "react";
import { userSearchQuery } from "@/lib/client/users";
import type { UserMatch } from "@/lib/client/types";
import { inputClass } from "@/components/ui/field";

/**
 * A searchable people picker (ARIA combobox): typing searches usernames and display names on the
 * server (GET /api/users/search, this workspace's members left out); arrows move, Enter picks.
 */
export function PeoplePicker({ workspaceId, onPick }: { workspaceId: string; onPick: (user: UserMatch) => void }) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDeferredValue(text.trim());
  const search = useQuery({ ...userSearchQuery(q, workspaceId), enabled: open });
  const listId = useId();
  const matches = search.data ?? [];
  const pick = (user: UserMatch) => {
    onPick(user);
    setText("");
    setOpen(false);
  };
  return (
    <div className="relative flex-1">
      <label className="sr-only" htmlFor={`${listId}-input`}>
        Find a person to add
      </label>
      <input
        id={`${listId}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && matches[active] ? `${listId}-${matches[active].id}` : undefined}
        value={text}
        placeholder="Search people by name"
        autoComplete="off"
        className={`${inputClass} mt-0`}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") setActive((i) => Math.min(i + 1, matches.length - 1));
          else if (event.key === "ArrowUp") setActive((i) => Math.max(i - 1, 0));
          else if (event.key === "Escape") setOpen(false);
          else if (event.key === "Enter" && open && matches[active]) pick(matches[active]);
          else return;
          event.preventDefault();
        }}
      />
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="People"
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {search.isError ? (
            <li className="px-3 py-2 text-red-700 dark:text-red-300">Could not search: {search.error.message}</li>
          ) : search.isPending ? (
            <li className="px-3 py-2 text-slate-600 dark:text-slate-400">Searching…</li>
          ) : matches.length === 0 ? (
            <li className="px-3 py-2 text-slate-600 dark:text-slate-400">
              {q
                ? `Nobody matches “${q}” (members are not listed). Invite them with a link below.`
                : "No one left to add: invite people below."}
            </li>
          ) : (
            matches.map((user, index) => (
              <li
                key={user.id}
                id={`${listId}-${user.id}`}
                role="option"
                aria-selected={index === active}
                // Before the input's blur closes the list.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(user)}
                className={`cursor-pointer px-3 py-1.5 ${index === active ? "bg-blue-50 dark:bg-blue-950" : ""}`}
              >
                <span className="font-medium">{user.display_name ?? user.username}</span>
                {user.display_name ? <span className="ml-2 text-slate-600 dark:text-slate-400">@{user.username}</span> : null}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
