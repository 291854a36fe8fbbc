import { describe, expect, it } from "vitest";
import { slackSignature, slackSignatureRefusal } from "@/lib/slack/verify-request";
import { replyAnswer } from "@/lib/slack/reply-answer";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const now = 1_531_420_618_000;
const headers = (values: Record<string, string>) => new Headers(values);

describe("Slack's v0 request signature", () => {
  // Slack's documented example (api.slack.com/authentication/verifying-requests-from-slack).
  const body =
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

  it("matches Slack's documented example", () => {
    expect(slackSignature(SECRET, "1531420618", body)).toBe("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
    const signed = headers({
      "x-slack-request-timestamp": "1531420618",
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    });
    expect(slackSignatureRefusal(body, signed, SECRET, now)).toBeNull();
  });

  it("refuses a changed body, another secret, a stale or future timestamp, and missing headers", () => {
    const signed = headers({ "x-slack-request-timestamp": "1531420618", "x-slack-signature": slackSignature(SECRET, "1531420618", body) });
    expect(slackSignatureRefusal(`${body}&x=1`, signed, SECRET, now)).toBe("X-Slack-Signature does not match");
    expect(slackSignatureRefusal(body, signed, "another-secret", now)).toBe("X-Slack-Signature does not match");
    expect(slackSignatureRefusal(body, signed, SECRET, now + 301_000)).toMatch(/more than 5 minutes/);
    expect(slackSignatureRefusal(body, signed, SECRET, now - 301_000)).toMatch(/more than 5 minutes/);
    expect(slackSignatureRefusal(body, headers({}), SECRET, now)).toMatch(/missing/);
    expect(slackSignatureRefusal(body, signed, null, now)).toMatch(/not configured/);
    const truncated = headers({ "x-slack-request-timestamp": "1531420618", "x-slack-signature": "v0=a2" });
    expect(slackSignatureRefusal(body, truncated, SECRET, now)).toBe("X-Slack-Signature does not match");
  });
});

describe("what a reply in a question's thread means", () => {
  const options = ["Allow once", "Always allow", "Reject"];

  it("takes an option's number or name, in any case, and leaves a mention of the bot out", () => {
    expect(replyAnswer("2", options, true)).toBe("Always allow");
    expect(replyAnswer(" 3. ", options, true)).toBe("Reject");
    expect(replyAnswer("<@UBOT> always ALLOW", options, true)).toBe("Always allow");
  });

  it("takes words for a question of words, but only an option for a permission request", () => {
    expect(replyAnswer("Call it Aurora", [], false)).toBe("Call it Aurora");
    expect(replyAnswer("Neither, thanks", ["Yes", "No"], false)).toBe("Neither, thanks");
    expect(replyAnswer("sure", options, true)).toEqual({
      refusal: "Reply with the number or name of one of the options: 1. Allow once, 2. Always allow, 3. Reject.",
    });
    expect(replyAnswer("7", options, true)).toHaveProperty("refusal");
    expect(replyAnswer("  ", [], false)).toEqual({ refusal: "Your reply was empty: nothing was answered." });
  });
});
