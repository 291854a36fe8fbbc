import type { Db, Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";
import { notificationSettings, type NotificationSettingsBody } from "@/lib/notifications/schemas";
import { configuredChannels } from "@/lib/notifications/channels";

/** Everything on, in UTC, no quiet hours, no digest: what a person without a row gets. */
export function defaultSettings(): NotificationSettingsBody {
  const on = Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, true]));
  return {
    kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, { ...on }])) as NotificationSettingsBody["kinds"],
    time_zone: "UTC",
    quiet_hours: null,
    digest: false,
  };
}

/** A stored row read back through the schema; a row the schema no longer accepts gives the defaults. */
function parseStored(value: unknown): NotificationSettingsBody {
  const parsed = notificationSettings.safeParse(typeof value === "string" ? JSON.parse(value) : value);
  return parsed.success ? parsed.data : defaultSettings();
}

export async function getNotificationSettings(db: Db, userId: string) {
  const row = await db.notificationSettings.findUnique({ where: { userId } });
  return { ...(row ? parseStored(row.settings) : defaultSettings()), configured_channels: configuredChannels() };
}

export async function putNotificationSettings(db: Db, userId: string, body: NotificationSettingsBody) {
  const settings = body as unknown as Prisma.InputJsonValue;
  await db.notificationSettings.upsert({ where: { userId }, create: { userId, settings }, update: { settings } });
  return { ...body, configured_channels: configuredChannels() };
}

/** Several people's settings at once, for the notify step (defaults for those without a row). */
export async function settingsOf(tx: Tx | Db, userIds: string[]): Promise<Map<string, NotificationSettingsBody>> {
  const rows = userIds.length ? await tx.notificationSettings.findMany({ where: { userId: { in: userIds } } }) : [];
  const stored = new Map(rows.map((row) => [row.userId, parseStored(row.settings)]));
  return new Map(userIds.map((id) => [id, stored.get(id) ?? defaultSettings()]));
}
