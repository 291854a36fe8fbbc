import { describe, expect, it } from "vitest";
import { hashLoad, hashPassword, MAX_CONCURRENT_HASHES, verifyPassword } from "@/lib/auth/password";

describe("password hashing", () => {
  it("verifies the right password only, with a fresh salt each time", async () => {
    const first = await hashPassword("correct horse");
    const second = await hashPassword("correct horse");
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse", first)).toBe(true);
    expect(await verifyPassword("wrong horse", first)).toBe(false);
    expect(await verifyPassword("anything", "garbage")).toBe(false);
  });
});

describe("password hashing under a burst", () => {
  it("runs at most MAX_CONCURRENT_HASHES at once and still answers every request", async () => {
    const stored = await hashPassword("correct horse");
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => verifyPassword(i === 0 ? "correct horse" : `guess ${i}`, stored)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(hashLoad().peak).toBeGreaterThan(1);
    expect(hashLoad().peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    expect(hashLoad()).toMatchObject({ running: 0, waiting: 0 });
  });
});
