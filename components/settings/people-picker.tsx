"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { userSearchQuery } from "@/lib/client/users";
import type { UserMatch } from "@/lib/client/types";
import { Combobox } from "@/components/ui/combobox";

/**
 * Finds a person to add to the workspace: typing searches usernames and display names on the
 * server (GET /api/users/search, this workspace's members left out). It searches only once opened,
 * so Settings does not ask the server for people nobody is looking for.
 */
export function PeoplePicker({ workspaceId, onPick }: { workspaceId: string; onPick: (user: UserMatch) => void }) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const q = useDeferredValue(text.trim());
  const search = useQuery({ ...userSearchQuery(q, workspaceId), enabled: open });
  return (
    <Combobox
      className="relative flex-1"
      label="Find a person to add"
      hideLabel
      placeholder="Search people by name"
      listLabel="People"
      text={text}
      onTextChange={setText}
      onOpenChange={setOpen}
      search={{ options: search.data ?? [], isPending: search.isPending, error: search.error }}
      empty={
        q ? `Nobody matches “${q}” (members are not listed). Invite them with a link below.` : "No one left to add: invite people below."
      }
      onPick={onPick}
      renderOption={(user) => (
        <>
          <span className="font-medium">{user.display_name ?? user.username}</span>
          {user.display_name ? <span className="min-w-0 truncate text-slate-600 dark:text-slate-400">@{user.username}</span> : null}
        </>
      )}
    />
  );
}
