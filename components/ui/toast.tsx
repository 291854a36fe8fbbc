"use client";

import { createContext, useCallback, useContext, useMemo, useState } from "react";
import { UNDO_MS } from "@/lib/client/undoable-delete";

// Short messages that say what happened (a refused move, a saved change). They sit in a live
// region so screen readers read them too, and go away on their own.

/** A button in the toast: "Undo" for 10 s after a move or a delete. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

interface Toast {
  id: number;
  message: string;
  tone: "error" | "info";
  action?: ToastAction;
}

const ToastContext = createContext<(message: string, tone?: Toast["tone"], action?: ToastAction) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((message: string, tone: Toast["tone"] = "info", action?: ToastAction) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-3), { id, message, tone, action }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), action ? UNDO_MS : tone === "error" ? 8000 : 4000);
  }, []);
  const dismiss = (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id));
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.tone === "error" ? "alert" : "status"}
            className={`pointer-events-auto rounded-lg px-4 py-3 text-sm shadow-lg ${
              toast.tone === "error" ? "bg-red-700 text-white" : "bg-slate-800 text-white dark:bg-slate-100 dark:text-slate-900"
            }`}
          >
            {toast.message}
            {toast.action ? (
              <button
                type="button"
                className="ml-3 font-semibold underline"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action?.onClick();
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
