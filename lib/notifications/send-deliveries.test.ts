import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { registerChannelSender, type OutgoingNotification } from "@/lib/notifications/channels";
import { createNotifications } from "@/lib/notifications/notify";
import { sendOneDelivery } from "@/lib/notifications/send-deliveries";
import { defaultSettings } from "@/lib/notifications/settings";

// The channel interface (lib/notifications/channels.ts) with a sender of this test's own: a delivery
// is created only for a configured channel, handed over with its idempotency key, retried with
// back-off after a failure, sent once, and never again; a channel no longer configured is skipped.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
const sent: OutgoingNotification[] = [];
let failNext = 0;
let nowhereNext = false;
let configured = true;

beforeAll(async () => {
  database = await openOwnDatabase();
  registerChannelSender("email", {
    configured: () => configured,
    send: async (notification) => {
      if (failNext > 0) {
        failNext--;
        throw new Error("SMTP said 451: try again later");
      }
      if (nowhereNext) {
        nowhereNext = false;
        return { skipped: "This person has no address" };
      }
      sent.push(notification);
    },
  });
});
afterAll(async () => {
  await database?.close();
});

async function notifyOnce(source: string) {
  const user = await database.db.user.create({ data: { username: `u${Math.random()}`, passwordHash: "x" } });
  const workspace = await database.db.workspace.create({ data: { name: "notify" } });
  const item = { userId: user.id, workspaceId: workspace.id, kind: "mention" as const, source, title: "You were mentioned" };
  expect(await database.db.$transaction((tx) => createNotifications(tx, [item]))).toBe(1);
  // The same cause again (a retried event): nothing more.
  expect(await database.db.$transaction((tx) => createNotifications(tx, [item]))).toBe(0);
  const notification = await database.db.notification.findFirstOrThrow({ where: { userId: user.id }, include: { deliveries: true } });
  return notification;
}

const delivery = (notificationId: string, channel: string) =>
  database.db.notificationDelivery.findFirstOrThrow({ where: { notificationId, channel } });

describe("deliveries on a channel with a sender", () => {
  it("are sent once with their idempotency key, after a failure retried with back-off", async () => {
    const notification = await notifyOnce("comment:1");
    expect(notification.deliveries.map((d) => [d.channel, d.status]).sort()).toEqual([
      ["email", "pending"],
      ["in_app", "sent"],
    ]);
    failNext = 1;
    expect(await sendOneDelivery(database.db)).toBe(true);
    const failed = await delivery(notification.id, "email");
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastError: "SMTP said 451: try again later" });
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    // Not due yet: nothing is sent.
    expect(await sendOneDelivery(database.db)).toBe(false);
    await database.db.notificationDelivery.update({ where: { id: failed.id }, data: { nextAttemptAt: new Date() } });
    expect(await sendOneDelivery(database.db)).toBe(true);
    expect(await delivery(notification.id, "email")).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(sent.map((s) => s.idempotencyKey)).toEqual([`${notification.id}:email`]);
    expect(await sendOneDelivery(database.db)).toBe(false);
    expect(sent).toHaveLength(1);
  });

  it("are not created for a channel that is not configured, and a pending one whose channel went away is skipped", async () => {
    configured = false;
    const none = await notifyOnce("comment:2");
    expect(none.deliveries.map((d) => d.channel)).toEqual(["in_app"]);
    configured = true;
    const pending = await notifyOnce("comment:3");
    configured = false;
    expect(await sendOneDelivery(database.db)).toBe(true);
    expect(await delivery(pending.id, "email")).toMatchObject({
      status: "skipped",
      lastError: "The email channel is not configured on this server",
    });
    configured = true;
  });

  it("are skipped, saying why, when the sender had nowhere to send them, and never tried again", async () => {
    const notification = await notifyOnce("comment:4");
    nowhereNext = true;
    expect(await sendOneDelivery(database.db)).toBe(true);
    expect(await delivery(notification.id, "email")).toMatchObject({
      status: "skipped",
      attempts: 1,
      sentAt: null,
      lastError: "This person has no address",
    });
    expect(await sendOneDelivery(database.db)).toBe(false);
    expect(sent.map((s) => s.idempotencyKey)).not.toContain(`${notification.id}:email`);
  });

  it("wait for the end of the person's quiet hours; the inbox does not", async () => {
    const hhmm = (offsetMinutes: number) => new Date(Date.now() + offsetMinutes * 60_000).toISOString().slice(11, 16);
    const user = await database.db.user.create({ data: { username: `quiet${Math.random()}`, passwordHash: "x" } });
    const workspace = await database.db.workspace.create({ data: { name: "quiet" } });
    const settings = { ...defaultSettings(), quiet_hours: { start: hhmm(-60), end: hhmm(60) } };
    await database.db.notificationSettings.create({ data: { userId: user.id, settings } });
    const item = { userId: user.id, workspaceId: workspace.id, kind: "question" as const, source: "question:q", title: "Which?" };
    await database.db.$transaction((tx) => createNotifications(tx, [item]));
    const notification = await database.db.notification.findFirstOrThrow({ where: { userId: user.id }, include: { deliveries: true } });
    expect(notification.readAt).toBeNull();
    const email = notification.deliveries.find((d) => d.channel === "email")!;
    expect(email.status).toBe("pending");
    expect(email.nextAttemptAt!.toISOString().slice(11, 16)).toBe(hhmm(60));
    expect(notification.deliveries.find((d) => d.channel === "in_app")).toMatchObject({ status: "sent" });
  });
});
