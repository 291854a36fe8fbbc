"use client";

import { useSyncExternalStore } from "react";
import { chooseTheme, storedTheme, THEMES, type Theme } from "@/lib/client/theme";

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** System, light or dark: the app's colours, remembered in this browser. */
export function ThemeSwitch() {
  const theme = useSyncExternalStore(subscribe, storedTheme, () => "system" as Theme);
  return (
    <label className="inline-flex items-center text-sm">
      <span className="sr-only">Theme</span>
      <select
        aria-label="Theme"
        value={theme}
        onChange={(event) => {
          chooseTheme(event.target.value as Theme);
          listeners.forEach((listener) => listener());
        }}
        className="min-h-9 rounded-md border border-slate-300 bg-white px-1.5 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {THEMES.map((value) => (
          <option key={value} value={value}>
            {value === "system" ? "◐ System" : value === "light" ? "☀ Light" : "☾ Dark"}
          </option>
        ))}
      </select>
    </label>
  );
}
