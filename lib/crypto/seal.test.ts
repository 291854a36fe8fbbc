import { afterEach, describe, expect, it } from "vitest";
import { isSealed, needsReseal, seal, unseal } from "@/lib/crypto/seal";
import { keepEnvironment } from "@/tests/helpers/environment";

// Sealing under the auth secret, and rotating it with AUTH_SECRET_PREVIOUS (docs/SECURITY.md).

afterEach(keepEnvironment());

describe("seal", () => {
  it("round-trips, never shows the plaintext, and detects tampering", () => {
    process.env.AUTH_SECRET = "first-secret";
    const sealed = seal("whsec_abc");
    expect(sealed).toMatch(/^tbenc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain("whsec_abc");
    expect(seal("whsec_abc")).not.toBe(sealed);
    expect(unseal(sealed)).toBe("whsec_abc");
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(() => unseal(sealed.slice(0, -2) + last + sealed.at(-1))).toThrow();
    expect(unseal("plain-from-before")).toBe("plain-from-before");
    expect(isSealed("plain-from-before")).toBe(false);
    expect(needsReseal("plain-from-before")).toBe(true);
    expect(needsReseal(sealed)).toBe(false);
  });

  it("opens values sealed under AUTH_SECRET_PREVIOUS after a rotation, and asks for them to be sealed again", () => {
    process.env.AUTH_SECRET = "old-secret";
    const sealed = seal("token-1");
    process.env.AUTH_SECRET = "new-secret";
    process.env.AUTH_SECRET_PREVIOUS = "";
    expect(() => unseal(sealed)).toThrow(/AUTH_SECRET_PREVIOUS/);
    process.env.AUTH_SECRET_PREVIOUS = "unrelated, old-secret";
    expect(unseal(sealed)).toBe("token-1");
    expect(needsReseal(sealed)).toBe(true);
    expect(needsReseal(seal("token-1"))).toBe(false);
  });
});
