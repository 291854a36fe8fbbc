"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { secondaryButton } from "@/components/ui/field";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { ThemeSwitch } from "@/components/theme-switch";

export function AppHeader({ username, children }: { username: string; children?: React.ReactNode }) {
  return (
    <header className="flex flex-wrap items-center gap-x-2 gap-y-2 sm:gap-x-3 border-b border-slate-200 bg-white px-3 py-2 sm:px-6 sm:py-3 dark:border-slate-800 dark:bg-slate-900">
      <Link href="/" className="shrink-0 font-semibold">
        Taskboard
      </Link>
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-2 max-md:contents">{children}</div>
      <NotificationBell />
      <ThemeSwitch />
      <span className="hidden max-w-40 truncate text-sm whitespace-nowrap text-slate-600 sm:inline dark:text-slate-400">{username}</span>
      <button type="button" className={`${secondaryButton} whitespace-nowrap`} onClick={() => signOut({ callbackUrl: "/login" })}>
        Sign out
      </button>
    </header>
  );
}
