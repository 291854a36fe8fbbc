import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import type { NewEvent } from "@/lib/events/record-events";
import { liveLogEvents, recordIn } from "@/tests/helpers/events";
import { pruneEvents } from "@/lib/events/prune-events";
import { claimEndpoint, workOn } from "@/lib/webhooks/deliver-webhooks";
import { seal } from "@/lib/crypto/seal";

// Webhooks never receive stream-only events, so those must neither make the worker claim an
// endpoint nor, once retention deleted them, be reported to it as a gap.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  delete process.env.EVENT_RETENTION_EVENTS;
  await database?.close();
});

const record = (workspaceId: string, events: NewEvent[]) => recordIn(database.db, workspaceId, events);
const deleted = (id: string): NewEvent => ({ type: "task.deleted", taskId: null, data: { id } });
const other = (id: string): NewEvent => ({ type: "question.created", taskId: null, data: { id } });

async function endpointIn(events: string[]) {
  const workspace = await database.db.workspace.create({ data: { name: `hooks ${Math.random()}` } });
  // Port 9 (discard): never reached here, as no event below is one the endpoint takes and sends.
  await database.db.webhook.create({ data: { workspaceId: workspace.id, url: "http://127.0.0.1:9/", events, secret: seal("s") } });
  return workspace.id;
}

async function workOnce(): Promise<boolean> {
  const token = `t-${Math.random()}`;
  const endpoint = await claimEndpoint(database.db, token);
  if (!endpoint) return false;
  await workOn(database.db, endpoint, token);
  await database.db.webhook.update({ where: { id: endpoint.id }, data: { leaseUntil: null, leaseToken: null } });
  return true;
}

describe("the webhook worker and stream-only events", () => {
  it("claims no endpoint for a log that grew by stream-only events only, and reports no gap when retention deleted them", async () => {
    process.env.EVENT_RETENTION_EVENTS = "2";
    const ws = await endpointIn(["task.deleted"]);
    await record(ws, [other("q1")]);
    expect(await workOnce()).toBe(true);
    expect(await workOnce()).toBe(false);

    await record(ws, liveLogEvents(6));
    expect(await workOnce()).toBe(false);
    await pruneEvents(database.sql);
    await record(ws, [other("q2")]);
    expect(await workOnce()).toBe(true);
    expect(await database.db.webhookDelivery.count({ where: { webhook: { workspaceId: ws } } })).toBe(0);

    // A deleted event the endpoint would have taken is a gap, in words.
    await record(ws, [deleted("t1"), other("q3"), other("q4")]);
    await pruneEvents(database.sql);
    expect(await workOnce()).toBe(true);
    const [skipped] = await database.db.webhookDelivery.findMany({ where: { webhook: { workspaceId: ws } } });
    expect(skipped).toMatchObject({ status: "skipped", error: expect.stringMatching(/deleted by the event log's retention/) });
  });
});
