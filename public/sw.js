// The board's service worker (docs/notifications.md, "Browser push"). It does one thing: show the
// server's push messages and act on their clicks. No caching: the board is live data.
//
// A message's JSON is {title, body, url, tag, actions}; an action with a `key` answers the
// question with its `answer` through POST /api/push/answers (the key is the credential, so no
// session is needed); "Answer…" or a click on the notification itself opens the board at the task.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message) return;
  const actions = (message.actions || []).map((action) => ({ action: action.action, title: action.title }));
  event.waitUntil(
    self.registration.showNotification(message.title || "Taskboard", {
      body: message.body || "",
      tag: message.tag,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      actions: actions.slice(0, self.Notification && Notification.maxActions ? Notification.maxActions : 2),
      // Everything the click needs, since the click comes to a worker that may have been restarted.
      data: { url: message.url || "/", actions: message.actions || [] },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  const notification = event.notification;
  const data = notification.data || {};
  notification.close();
  const chosen = (data.actions || []).find((action) => action.action === event.action && action.key);
  event.waitUntil(chosen ? answer(chosen, data.url) : openBoard(data.url || "/"));
});

async function answer(action, url) {
  let words;
  try {
    const response = await fetch("/api/push/answers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: action.key, answer: action.answer }),
    });
    if (response.ok) return;
    const body = await response.json().catch(() => ({}));
    words = typeof body.detail === "string" ? body.detail : `The board refused the answer (HTTP ${response.status}).`;
  } catch {
    words = "The board could not be reached, so the answer was not sent. Answer it on the board instead.";
  }
  // The refusal in words, where the person is looking: another notification; its click opens the board.
  await self.registration.showNotification("Your answer was not taken", {
    body: words,
    icon: "/icon-192.png",
    data: { url, actions: [] },
  });
}

async function openBoard(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open =
    windows.find((client) => client.url === target) || windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    if (open.url !== target && "navigate" in open) await open.navigate(target);
    return;
  }
  await self.clients.openWindow(target);
}
