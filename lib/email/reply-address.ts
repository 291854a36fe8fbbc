// The address a mailed question is answered at: INCOMING_EMAIL_ADDRESS with its `%{key}` replaced
// by the question's answer key for that person (lib/questions/answer-keys.ts), in the manner of
// GitLab's incoming email. A reply is matched back by the same template.

const KEY = "[A-Za-z0-9_-]{43}";

export function replyAddress(template: string, key: string): string {
  return template.replace("%{key}", key);
}

/** The key in the first of `addresses` that fits the template; null when none does (mail not for us). */
export function keyFromAddresses(template: string, addresses: string[]): string | null {
  const [before, after] = template.split("%{key}").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`^${before}(${KEY})${after}$`, "i");
  for (const address of addresses) {
    const match = pattern.exec(address.trim());
    if (match) return match[1];
  }
  return null;
}
