import EmailReplyParser from "email-reply-parser";

// What a person wrote in a reply, and which answer it is. The quoted message and the signature are
// cut by a maintained parser (email-reply-parser); what is left is an option's number ("2"), an
// option's name, or, where the question allows it, words.

export function visibleReply(text: string): string {
  return new EmailReplyParser().read(text).getVisibleText().trim();
}

export type ReplyAnswer = { ok: true; answer: string } | { ok: false; reason: string };

/** `options`: the question's choices in order; `optionsOnly`: an agent's permission request, which takes nothing else. */
export function answerFromReply(reply: string, options: string[], optionsOnly: boolean): ReplyAnswer {
  const text = reply.replace(/\s+/g, " ").trim();
  if (!text) return { ok: false, reason: "Your reply had no answer in it (only quoted text or a signature)." };
  const numbered = /^(\d{1,2})[.)]?$/.exec(text);
  if (numbered && options.length > 0) {
    const option = options[Number(numbered[1]) - 1];
    if (option) return { ok: true, answer: option };
  }
  const named = options.find((option) => option.toLowerCase() === text.toLowerCase().replace(/[.!]$/, ""));
  if (named) return { ok: true, answer: named };
  if (optionsOnly) {
    const list = options.map((option, index) => `${index + 1}. ${option}`).join("\n");
    return { ok: false, reason: `The agent asked for one of its options. Reply with its number or name:\n${list}` };
  }
  return { ok: true, answer: text.slice(0, 10_000) };
}
