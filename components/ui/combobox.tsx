"use client";

import { useId, useState, type ReactNode } from "react";
import { inputClass } from "@/components/ui/field";

// The one searchable picker of the app (ARIA 1.2 combobox pattern): arrows move through the
// options, Enter picks (and never submits the form around it), Escape closes the list before the
// dialog around it. The caller owns the text and the search, so each picker keeps its own query;
// this owns only what the list looks like and how the keyboard moves in it.

export interface ComboboxSearch<T> {
  options: T[];
  isPending: boolean;
  error: Error | null;
}

export function Combobox<T extends { id: string }>({
  label,
  hideLabel = false,
  placeholder,
  listLabel,
  text,
  onTextChange,
  onOpenChange,
  showList: shouldShow = (open) => open,
  search,
  empty,
  renderOption,
  onPick,
  disabled = false,
  className = "relative",
}: {
  label: string;
  hideLabel?: boolean;
  placeholder: string;
  listLabel: string;
  text: string;
  onTextChange: (text: string) => void;
  onOpenChange?: (open: boolean) => void;
  /** Whether the list shows while the input is focused (a picker may wait for a first letter). */
  showList?: (open: boolean) => boolean;
  search: ComboboxSearch<T>;
  /** What an empty list says, in words. */
  empty: string;
  renderOption: (option: T) => ReactNode;
  onPick: (option: T) => void;
  disabled?: boolean;
  className?: string;
}) {
  const [open, setOpenState] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const inputId = useId();
  const { options } = search;
  const showList = shouldShow(open);
  const setOpen = (next: boolean) => {
    setOpenState(next);
    onOpenChange?.(next);
  };
  const pick = (option: T) => {
    onPick(option);
    onTextChange("");
    setOpen(false);
    setActive(0);
  };

  return (
    <div className={className}>
      <label htmlFor={inputId} className={hideLabel ? "sr-only" : "block text-sm font-medium"}>
        {label}
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && options[active] ? `${listId}-${options[active].id}` : undefined}
        autoComplete="off"
        placeholder={placeholder}
        value={text}
        disabled={disabled}
        onChange={(event) => {
          onTextChange(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
            if (options.length) setActive((i) => (i + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
          } else if (event.key === "Enter") {
            event.preventDefault();
            if (showList && options[active]) pick(options[active]);
          } else if (event.key === "Escape" && showList) {
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
          }
        }}
        className={`${inputClass} ${hideLabel ? "mt-0" : ""}`}
      />
      {showList ? (
        <ul
          id={listId}
          role="listbox"
          aria-label={listLabel}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {search.error ? (
            <li className="px-3 py-2 text-red-800 dark:text-red-300">Search failed: {search.error.message}</li>
          ) : search.isPending ? (
            <li className="px-3 py-2 text-slate-600 dark:text-slate-400">Searching…</li>
          ) : options.length === 0 ? (
            <li className="px-3 py-2 text-slate-600 dark:text-slate-400">{empty}</li>
          ) : (
            options.map((option, index) => (
              <li
                key={option.id}
                id={`${listId}-${option.id}`}
                role="option"
                aria-selected={index === active}
                // Before the input's blur closes the list, so the pick happens.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(option);
                }}
                onMouseEnter={() => setActive(index)}
                className={`flex min-h-9 cursor-pointer items-center gap-2 px-3 py-1.5 ${index === active ? "bg-blue-100 dark:bg-blue-900" : ""}`}
              >
                {renderOption(option)}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
