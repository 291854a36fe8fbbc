"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { secondaryButton } from "@/components/ui/field";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { ThemeSwitch } from "@/components/theme-switch";
import { PhoneMenu, type NavItem } from "@/components/phone-menu";

/** The top bar. `nav`: the pages a phone reaches through the menu (the desktop shows them in `children`). */
export function AppHeader({ username, nav = [], children }: { username: string; nav?: NavItem[]; children?: React.ReactNode }) {
  return (
    <header className="relative flex flex-wrap items-center gap-x-2 gap-y-2 sm:gap-x-3 border-b border-slate-200 bg-white px-3 py-2 sm:px-6 sm:py-3 dark:border-slate-800 dark:bg-slate-900">
      <Link href="/" className="shrink-0 font-semibold">
        Taskboard
      </Link>
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-2 max-md:contents">{children}</div>
      <NotificationBell />
      <div className="flex items-center gap-3 max-md:hidden">
        <ThemeSwitch />
        <span className="max-w-40 truncate text-sm whitespace-nowrap text-slate-600 dark:text-slate-400">{username}</span>
        <button type="button" className={`${secondaryButton} whitespace-nowrap`} onClick={() => signOut({ callbackUrl: "/login" })}>
          Sign out
        </button>
      </div>
      <PhoneMenu nav={nav} username={username} />
    </header>
  );
}
