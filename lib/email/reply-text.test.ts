import { describe, expect, it } from "vitest";
import { answerFromReply, visibleReply } from "@/lib/email/reply-text";
import { keyFromAddresses, replyAddress } from "@/lib/email/reply-address";

const OPTIONS = ["Allow once", "Always allow", "Reject"];

describe("a mailed reply's answer", () => {
  it("keeps what the person wrote above the quote and the signature", () => {
    const text = "2\n\n-- \nAnn\n\nOn Sat, Nov 28, 2026 at 9:00 PM Taskboard <board@example.com> wrote:\n> Which?\n> 1. Allow once\n";
    expect(visibleReply(text)).toBe("2");
  });

  it("takes an option's number or name, in any case", () => {
    expect(answerFromReply("2", OPTIONS, true)).toEqual({ ok: true, answer: "Always allow" });
    expect(answerFromReply("3.", OPTIONS, true)).toEqual({ ok: true, answer: "Reject" });
    expect(answerFromReply("always ALLOW", OPTIONS, true)).toEqual({ ok: true, answer: "Always allow" });
  });

  it("takes words where the question allows them, and refuses them for a permission request, listing its options", () => {
    expect(answerFromReply("Use the   second  one.", ["a", "b"], false)).toEqual({ ok: true, answer: "Use the second one." });
    expect(answerFromReply("9", OPTIONS, false)).toEqual({ ok: true, answer: "9" });
    const refused = answerFromReply("sure, go ahead", OPTIONS, true);
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining("1. Allow once\n2. Always allow\n3. Reject") });
    expect(answerFromReply("  ", OPTIONS, false)).toEqual({ ok: false, reason: expect.stringMatching(/no answer in it/) });
  });
});

describe("the reply address", () => {
  const key = "A".repeat(20) + "_-" + "b".repeat(21);
  it("puts the key in the template and finds it again, and nothing in other addresses", () => {
    const address = replyAddress("reply+%{key}@board.example.com", key);
    expect(address).toBe(`reply+${key}@board.example.com`);
    expect(
      keyFromAddresses("reply+%{key}@board.example.com", ["someone@else.org", address.toUpperCase().replace(key.toUpperCase(), key)]),
    ).toBe(key);
    expect(
      keyFromAddresses("reply+%{key}@board.example.com", ["reply+short@board.example.com", `reply+${key}@evil.example.com`]),
    ).toBeNull();
  });
});
