import type { SendMailOptions, Transporter } from "nodemailer";
import { smtpConfig } from "@/lib/config";

// Outgoing mail through SMTP_URL, from MAIL_FROM (docs/email.md): invitations, notifications and
// the answers to mailed replies. One pooled connection per SMTP_URL for the process. nodemailer is
// loaded on the first mail: a server without SMTP never pays for it at start (docs/PERFORMANCE.md,
// "A server's start").

let transport: { url: string; transporter: Transporter } | null = null;

/** Sends `mail` from MAIL_FROM; false when the server has no SMTP configured. Throws the SMTP server's refusal. */
export async function sendMail(mail: Omit<SendMailOptions, "from">): Promise<boolean> {
  const smtp = smtpConfig();
  if (!smtp) return false;
  if (transport?.url !== smtp.url) {
    const { default: nodemailer } = await import("nodemailer");
    transport?.transporter.close();
    transport = { url: smtp.url, transporter: nodemailer.createTransport(`${smtp.url}${smtp.url.includes("?") ? "&" : "?"}pool=true`) };
  }
  await transport.transporter.sendMail({ ...mail, from: smtp.from });
  return true;
}

/** The address MAIL_FROM names ("Taskboard <board@example.com>" → board@example.com), for headers that need one. */
export function mailFromDomain(): string {
  const from = smtpConfig()?.from ?? "";
  return /@([^>\s]+)/.exec(from)?.[1] ?? "taskboard.invalid";
}
