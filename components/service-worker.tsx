"use client";

import { useEffect } from "react";

// Registers public/sw.js, which shows push notifications and answers from their actions
// (docs/notifications.md, "Browser push"). Only where the browser has service workers.
export function ServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: Error) => {
      console.warn(`The service worker did not register: ${error.message}`);
    });
  }, []);
  return null;
}
