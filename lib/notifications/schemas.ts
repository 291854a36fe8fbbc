import { z } from "zod";
import { queryBool, queryInt } from "@/lib/platform/schema-primitives";
import { DELIVERY_STATUSES, NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";

export const NOTIFICATION_PAGE = { default: 20, max: 100 };

export const listNotificationsQuery = z.object({
  unread: queryBool().optional().describe("true: only the unread ones."),
  limit: queryInt(z.int().min(1).max(NOTIFICATION_PAGE.max).default(NOTIFICATION_PAGE.default)),
  offset: queryInt(z.int().min(0).max(1_000_000).default(0)),
});

export const markReadBody = z
  .object({
    ids: z.array(z.string().min(1).max(100)).min(1).max(500).optional().describe("These notifications of yours."),
    all: z.literal(true).optional().describe("Every notification of yours."),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), {
    message: "Send either ids or all: true",
    path: ["ids"],
  });

export const notificationResponse = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  workspace_id: z.string(),
  workspace_name: z.string().nullable(),
  task_id: z.string().nullable(),
  question_id: z.string().nullable(),
  run_id: z.string().nullable().describe("The execution, for run_finished."),
  title: z.string(),
  body: z.string(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  question: z
    .object({
      status: z.string(),
      options: z.array(z.string()).nullable(),
      answer: z.string().nullable(),
    })
    .nullable()
    .describe("For a question's notification: the question as it is now, so it can be answered from the inbox."),
});
export type NotificationResponse = z.output<typeof notificationResponse>;

export const notificationPage = z.object({
  items: z.array(notificationResponse),
  total: z.int().describe("How many match the query (all, or the unread)."),
  unread: z.int().describe("How many of yours are unread: the bell's count."),
  limit: z.int(),
  offset: z.int(),
});

export const markReadResponse = z.object({ marked: z.int(), unread: z.int() });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "A time as HH:MM, 00:00 to 23:59");

const channelSwitches = z.object(
  Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, z.boolean()])) as Record<
    (typeof NOTIFICATION_CHANNELS)[number],
    z.ZodBoolean
  >,
);

export const notificationSettings = z.object({
  kinds: z
    .object(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channelSwitches])) as Record<
        (typeof NOTIFICATION_KINDS)[number],
        typeof channelSwitches
      >,
    )
    .describe("Per kind, per channel: on or off."),
  time_zone: z
    .string()
    .min(1)
    .max(100)
    .refine(isTimeZone, "An IANA time zone, such as Europe/Paris")
    .describe("The person's time zone, for quiet hours."),
  quiet_hours: z
    .object({ start: hhmm, end: hhmm })
    .refine((q) => q.start !== q.end, { message: "Quiet hours start and end at different times", path: ["end"] })
    .nullable()
    .describe(
      "No push, email or Slack between start and end (local time; may span midnight); they are sent when it ends. The inbox is not quiet.",
    ),
  digest: z.boolean().describe("Email one digest of what arrived instead of one message each."),
});
export type NotificationSettingsBody = z.output<typeof notificationSettings>;

export const notificationSettingsResponse = notificationSettings.extend({
  configured_channels: z.array(z.enum(NOTIFICATION_CHANNELS)).describe("The channels this server can send on now."),
});

export const deliveryResponse = z.object({
  id: z.string(),
  notification_id: z.string(),
  title: z.string(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.int(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});

export const listDeliveriesQuery = z.object({
  limit: queryInt(z.int().min(1).max(NOTIFICATION_PAGE.max).default(NOTIFICATION_PAGE.default)),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Watching a workspace: hearing of every question asked in it, not only of one's own tasks'. */
export const watchBody = z.object({
  watching: z.boolean().describe("true: tell me of every question in this workspace (owners and members; viewers are never asked)."),
});
export const watchResponse = watchBody;
