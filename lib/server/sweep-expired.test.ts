import { afterAll, beforeAll, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { sweepExpired } from "@/lib/server/sweep-expired";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createTask } from "@/lib/tasks/create-task";
import { createTaskBody } from "@/lib/tasks/schemas";
import { createQuestion } from "@/lib/questions/create-question";
import { createQuestionBody } from "@/lib/questions/schemas";

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  await database?.close();
});

const days = (n: number) => new Date(Date.now() + n * 86_400_000);

it("deletes what expired and keeps what still means something", async () => {
  const { db } = database;
  const user = await db.user.create({ data: { username: "sweeper", passwordHash: "x" } });
  const record = (key: string, model: string, payload: object, extra: { expiresAt?: Date; createdAt?: Date } = {}) =>
    db.oAuthRecord.create({ data: { key, model, payload, accountId: user.id, ...extra } });
  await record("AccessToken:old", "AccessToken", {}, { expiresAt: days(-1) });
  await record("AccessToken:live", "AccessToken", {}, { expiresAt: days(1) });
  await record("Client:unused", "Client", { client_id: "unused" }, { createdAt: days(-31) });
  await record("Client:granted", "Client", { client_id: "granted" }, { createdAt: days(-31) });
  await record("Grant:g", "Grant", { clientId: "granted", accountId: user.id }, { expiresAt: days(20) });
  await record("Client:new", "Client", { client_id: "new" });

  const token = (tokenHash: string, kind: "access" | "mcp_access" | "api_key", expiresAt: Date) =>
    db.authToken.create({ data: { tokenHash, kind, userId: user.id, expiresAt } });
  await token("t-old", "mcp_access", days(-31));
  await token("t-recent", "mcp_access", days(-2));
  await token("t-access-old", "access", days(-40));
  await token("t-key", "api_key", days(-60));

  const ws = await createWorkspace(db, user.id, "Sweeps");
  const task = await createTask(db, ws.id, createTaskBody.parse({ title: "Asked" }));
  const question = await createQuestion(db, ws.id, createQuestionBody.parse({ task_id: task.id, content: "Which?" }));
  const key = (keyHash: string, expiresAt: Date) =>
    db.answerKey.create({ data: { keyHash, questionId: question.id, userId: user.id, channel: "push", expiresAt } });
  await key("k-old", days(-31));
  await key("k-expired", days(-1));
  await key("k-live", days(6));

  await db.emailReceipt.create({ data: { messageId: "<old@x>", receivedAt: days(-31) } });
  await db.emailReceipt.create({ data: { messageId: "<new@x>" } });

  const deleted = await sweepExpired(db);
  expect(deleted).toEqual({
    "expired OAuth records": 1,
    "OAuth clients nobody uses": 1,
    "expired tokens": 2,
    "expired answer keys": 1,
    "old mail receipts": 1,
  });
  const keys = (rows: { key: string }[]) => rows.map((row) => row.key).sort();
  expect(keys(await db.oAuthRecord.findMany({ select: { key: true } }))).toEqual([
    "AccessToken:live",
    "Client:granted",
    "Client:new",
    "Grant:g",
  ]);
  const hashes = await db.authToken.findMany({ where: { userId: user.id }, select: { tokenHash: true } });
  expect(hashes.map((row) => row.tokenHash).sort()).toEqual(["t-key", "t-recent"]);
  expect((await db.answerKey.findMany({ select: { keyHash: true } })).map((row) => row.keyHash).sort()).toEqual(["k-expired", "k-live"]);
  expect((await db.emailReceipt.findMany({ select: { messageId: true } })).map((row) => row.messageId)).toEqual(["<new@x>"]);

  // A second pass finds nothing more.
  expect(Object.values(await sweepExpired(db))).toEqual([0, 0, 0, 0, 0]);
});
