import type { client } from "./api";
import { eventually } from "./engine";

/** Until the caller has a notification titled `title` (docs/notifications.md); it is returned. */
export async function heardOf(server: { call: ReturnType<typeof client> }, token: string, title: string) {
  return eventually(
    async () => {
      const page = await server.call("GET", "/api/me/notifications?limit=100", { token });
      return (page.body.items as { kind: string; title: string }[]).find((n) => n.title === title);
    },
    15_000,
    `the notification "${title}"`,
  );
}
