"use client";

import type { MemberRole } from "@/lib/client/types";

export const ROLE_WORDS: Record<MemberRole, string> = {
  owner: "Owner: everything, members and settings too",
  member: "Member: works on the board",
  viewer: "Viewer: reads only",
};

export function RoleSelect({
  id,
  value,
  onChange,
  label,
}: {
  id: string;
  value: MemberRole;
  onChange: (role: MemberRole) => void;
  label: string;
}) {
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as MemberRole)}
        className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {(Object.keys(ROLE_WORDS) as MemberRole[]).map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </>
  );
}
