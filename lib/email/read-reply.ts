import type { AddressObject, ParsedMail } from "mailparser";
import type { Db } from "@/lib/db/client";
import { incomingEmailConfig } from "@/lib/config";
import { answerAsPerson } from "@/lib/questions/answer-as-person";
import { redeemAnswerKey } from "@/lib/questions/answer-keys";
import type { PermissionOption } from "@/lib/questions/permission-options";
import { keyFromAddresses } from "@/lib/email/reply-address";
import { answerFromReply, visibleReply } from "@/lib/email/reply-text";

// One message from the incoming mailbox (docs/email.md). Mail that is not a person's reply
// (bounces, auto-replies, mailing lists) is ignored; a message seen before (its Message-ID) changes
// nothing. A reply's key names the question and the person it was mailed to; only mail from that
// person's own address answers it, through the same rules as every other channel (answerAsPerson).
// Whatever refuses it is said back to the sender in words.

export type ReplyOutcome =
  | { status: "answered"; questionId: string }
  | { status: "ignored"; why: string }
  | { status: "refused"; to: string; subject: string; inReplyTo: string | null; text: string };

export async function readReply(db: Db, source: Buffer | string): Promise<ReplyOutcome> {
  const incoming = incomingEmailConfig();
  if (!incoming) return { status: "ignored", why: "incoming mail is not configured" };
  // mailparser is loaded with the first reply, not at every server's start.
  const { simpleParser } = await import("mailparser");
  const mail = await simpleParser(source);
  const automatic = automaticReason(mail);
  if (automatic) return { status: "ignored", why: automatic };
  const from = mail.from?.value[0]?.address?.toLowerCase();
  if (!from) return { status: "ignored", why: "no sender" };
  const key = keyFromAddresses(incoming.address, recipients(mail));
  if (!key) return { status: "ignored", why: "not addressed to a reply address" };
  if (mail.messageId) {
    const taken = await db.emailReceipt.createMany({ data: [{ messageId: mail.messageId }], skipDuplicates: true });
    if (taken.count === 0) return { status: "ignored", why: "seen before" };
  }
  try {
    return await answerReply(db, mail, from, key);
  } catch (error) {
    // Not read after all: the next pass reads it again.
    if (mail.messageId) await db.emailReceipt.deleteMany({ where: { messageId: mail.messageId } });
    throw error;
  }
}

async function answerReply(db: Db, mail: ParsedMail, from: string, key: string): Promise<ReplyOutcome> {
  const refuse = (text: string): ReplyOutcome => ({
    status: "refused",
    to: from,
    subject: mail.subject?.startsWith("Re:") ? mail.subject : `Re: ${mail.subject ?? "your answer"}`,
    inReplyTo: mail.messageId ?? null,
    text: `${text}\n\nNothing was changed on the board.`,
  });
  const redeemed = await redeemAnswerKey(db, key);
  if (!redeemed.ok) return refuse(redeemed.reason);
  const { questionId, userId } = redeemed.grant;
  const [person, question] = await Promise.all([
    db.user.findUnique({ where: { id: userId }, select: { email: true } }),
    db.question.findUnique({ where: { id: questionId }, select: { options: true, permissionOptions: true } }),
  ]);
  if (!person?.email || person.email.toLowerCase() !== from) {
    return refuse(
      `This question was mailed to someone else, so a reply from ${from} cannot answer it. Answer from the address it was sent to, or on the board.`,
    );
  }
  if (!question) return refuse("That question no longer exists on the board.");
  const permission = question.permissionOptions as PermissionOption[] | null;
  const options = permission ? permission.map((option) => option.name) : ((question.options as string[] | null) ?? []);
  const answer = answerFromReply(visibleReply(mail.text ?? ""), options, !!permission);
  if (!answer.ok) return refuse(answer.reason);
  const refusal = await answerAsPerson(db, { userId, questionId, answer: answer.answer, via: "email" });
  return refusal ? refuse(refusal) : { status: "answered", questionId };
}

/** Why a message was written by a machine (RFC 3834, bounces, vacation replies, lists); null for a person's. */
function automaticReason(mail: ParsedMail): string | null {
  const header = (name: string) => String(mail.headers.get(name) ?? "").toLowerCase();
  if (header("auto-submitted") && header("auto-submitted") !== "no") return "Auto-Submitted";
  if (["bulk", "junk", "list", "auto_reply"].includes(header("precedence"))) return "Precedence";
  if (mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond") || mail.headers.has("list-id")) return "auto-reply or list";
  const contentType = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (contentType?.value === "multipart/report") return "delivery report";
  const returnPath = header("return-path");
  if (returnPath === "<>" || (mail.headers.has("return-path") && !returnPath.replace(/[<>\s]/g, ""))) return "bounce (empty Return-Path)";
  if (/^(mailer-daemon|postmaster)@/i.test(mail.from?.value[0]?.address ?? "")) return "bounce";
  return null;
}

function recipients(mail: ParsedMail): string[] {
  const list = (value: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) => group.value.map((entry) => entry.address ?? ""));
  const delivered = ["delivered-to", "x-original-to", "envelope-to"].flatMap((name) => {
    const value = mail.headers.get(name);
    return value ? [String(value).replace(/[<>]/g, "")] : [];
  });
  return [...list(mail.to), ...list(mail.cc), ...delivered].filter(Boolean);
}
