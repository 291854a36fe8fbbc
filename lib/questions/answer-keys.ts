import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { QUESTION_STATUS } from "@/lib/questions/statuses";

// A key lets one person answer one question without signing in: it rides in a push notification's
// actions and in a mailed question's reply address (docs/notifications.md). 256 random bits, of
// which only the SHA-256 is stored, so a leaked database holds no usable key. It is dead once the
// question is answered or gone (the row cascades) and after MAX_AGE_MS; lib/server/sweep-expired.ts
// deletes it 30 days after that.

const MAX_AGE_MS = 7 * 24 * 3_600_000;

export type AnswerKeyChannel = "push" | "email";

export interface AnswerKeyGrant {
  questionId: string;
  userId: string;
  channel: AnswerKeyChannel;
}

export async function issueAnswerKey(db: Db, grant: AnswerKeyGrant): Promise<string> {
  const key = crypto.randomBytes(32).toString("base64url");
  await db.answerKey.create({
    data: { ...grant, keyHash: hashKey(key), expiresAt: new Date(Date.now() + MAX_AGE_MS) },
    select: { id: true },
  });
  return key;
}

export type RedeemedKey = { ok: true; grant: AnswerKeyGrant } | { ok: false; reason: string };

/**
 * The question and person a key stands for, or why it no longer does. An answered question's key
 * still names its question, so the person hears who answered it first rather than "unknown key".
 */
export async function redeemAnswerKey(db: Db, key: string): Promise<RedeemedKey> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(key)) return { ok: false, reason: "This answer link is not valid." };
  const row = await db.answerKey.findUnique({
    where: { keyHash: hashKey(key) },
    select: { questionId: true, userId: true, channel: true, expiresAt: true, question: { select: { status: true } } },
  });
  if (!row) return { ok: false, reason: "This answer link is not valid, or its question was deleted." };
  if (row.expiresAt <= new Date() && row.question.status === QUESTION_STATUS.open) {
    return { ok: false, reason: "This answer link has expired. Answer the question on the board instead." };
  }
  return { ok: true, grant: { questionId: row.questionId, userId: row.userId, channel: row.channel as AnswerKeyChannel } };
}

function hashKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}
