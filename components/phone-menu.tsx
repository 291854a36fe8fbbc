"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { signOut } from "next-auth/react";
import { usePathname } from "next/navigation";
import { secondaryButton } from "@/components/ui/field";
import { ThemeSwitch } from "@/components/theme-switch";

export interface NavItem {
  href: string;
  label: string;
}

// Below the md breakpoint the top bar keeps only what is used all the time (the workspace, its
// Questions, the bell); the pages, the theme and Sign out fold into this menu (issue #38). A
// disclosure, not a modal: Escape or a tap outside closes it and gives focus back to its button, and
// choosing a page closes it.

export function PhoneMenu({ nav, username }: { nav: NavItem[]; username: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const pathname = usePathname();
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  // A page chosen in the menu closes it once the page is there.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const target = "flex min-h-11 items-center rounded-md px-3 text-base";
  return (
    <div className="md:hidden">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-slate-300 px-3 text-sm dark:border-slate-700"
      >
        Menu
      </button>
      {open ? (
        <>
          {/* A tap anywhere outside the panel closes it. */}
          <div aria-hidden="true" className="fixed inset-0 z-30" onClick={close} />
          <div
            id={panelId}
            className="absolute inset-x-0 top-full z-40 border-b border-slate-200 bg-white p-3 shadow-lg dark:border-slate-800 dark:bg-slate-900"
          >
            {nav.length > 0 ? (
              <nav aria-label="Workspace" className="mb-3 grid gap-1">
                {nav.map((item) => (
                  <Link
                    key={item.href}
                    href={item.href}
                    aria-current={pathname === item.href ? "page" : undefined}
                    onClick={() => setOpen(false)}
                    className={`${target} ${pathname === item.href ? "bg-slate-200 font-medium dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
                  >
                    {item.label}
                  </Link>
                ))}
              </nav>
            ) : null}
            <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-3 dark:border-slate-800">
              <ThemeSwitch />
              <span className="min-w-0 flex-1 truncate text-sm text-slate-600 dark:text-slate-400">Signed in as {username}</span>
              <button type="button" className={`${secondaryButton} min-h-11`} onClick={() => signOut({ callbackUrl: "/login" })}>
                Sign out
              </button>
            </div>
          </div>
        </>
      ) : null}
    </div>
  );
}
