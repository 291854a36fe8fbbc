"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { secondaryButton } from "@/components/ui/field";

export function AppHeader({ username, children }: { username: string; children?: React.ReactNode }) {
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-6 py-3 dark:border-slate-800 dark:bg-slate-900">
      <Link href="/" className="font-semibold">
        Taskboard
      </Link>
      <div className="flex flex-1 items-center gap-4">{children}</div>
      <span className="text-sm whitespace-nowrap text-slate-600 dark:text-slate-400">{username}</span>
      <button type="button" className={`${secondaryButton} whitespace-nowrap`} onClick={() => signOut({ callbackUrl: "/login" })}>
        Sign out
      </button>
    </header>
  );
}
