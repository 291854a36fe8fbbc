import type { OutgoingNotification } from "@/lib/notifications/channels";

// The words of the mails (docs/email.md). A question's mail lists its options numbered, says how to
// answer by replying, and links to the question on the board; other notifications are their title
// and body with a link.

export interface MailedQuestion {
  content: string;
  context: string | null;
  options: string[];
  optionsOnly: boolean;
}

export function questionMail(notification: OutgoingNotification, question: MailedQuestion, link: string | null, canReply: boolean) {
  const lines = [question.content, ...(question.context ? ["", question.context] : []), ""];
  if (question.options.length > 0) {
    lines.push(...question.options.map((option, index) => `  ${index + 1}. ${option}`), "");
  }
  if (canReply) {
    lines.push(
      question.options.length > 0
        ? question.optionsOnly
          ? "Reply to this mail with the number or the name of an option to answer."
          : "Reply to this mail with the number or the name of an option, or in your own words, to answer."
        : "Reply to this mail to answer.",
    );
  }
  if (link) lines.push(`${canReply ? "Or answer" : "Answer"} on the board: ${link}`);
  return { subject: notification.title, text: lines.join("\n") };
}

export function plainMail(notification: OutgoingNotification, link: string | null) {
  return { subject: notification.title, text: [notification.body, ...(link ? ["", `On the board: ${link}`] : [])].join("\n") };
}

/** Several notifications in one mail, for a person with the digest on. */
export function digestMail(notifications: OutgoingNotification[], link: (n: OutgoingNotification) => string | null) {
  const items = notifications.map((n) =>
    [`• ${n.title}`, ...(n.body ? [`  ${n.body.replace(/\n/g, "\n  ")}`] : []), ...(link(n) ? [`  ${link(n)}`] : [])].join("\n"),
  );
  return { subject: `${notifications.length} updates from the task board`, text: items.join("\n\n") };
}
