import { sendMail } from "@/lib/net/send-mail";

export interface InvitationMail {
  to: string;
  url: string;
  workspaceName: string;
  role: string;
  invitedBy: string;
  expiresAt: string;
}

/** Mails an invitation's link through SMTP_URL; false when the server has no SMTP configured. */
export async function sendInvitationMail(mail: InvitationMail): Promise<boolean> {
  return sendMail({
    to: mail.to,
    subject: `${mail.invitedBy} invited you to ${mail.workspaceName} on the task board`,
    text: [
      `${mail.invitedBy} invited you to the workspace "${mail.workspaceName}" as ${mail.role}.`,
      "",
      `Open this link to join: ${mail.url}`,
      "",
      `The link works once and expires on ${mail.expiresAt.slice(0, 10)}. If you did not expect it, ignore this mail.`,
    ].join("\n"),
  });
}
