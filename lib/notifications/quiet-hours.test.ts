import { describe, expect, it } from "vitest";
import { quietUntil } from "@/lib/notifications/quiet-hours";

describe("quietUntil", () => {
  const at = new Date("2026-11-28T23:30:20Z");
  it("is the moment itself without quiet hours, or outside them", () => {
    expect(quietUntil(at, { quiet_hours: null, time_zone: "UTC" })).toEqual(at);
    expect(quietUntil(at, { quiet_hours: { start: "08:00", end: "12:00" }, time_zone: "UTC" })).toEqual(at);
  });
  it("waits for the end of quiet hours that span midnight, in the person's time zone", () => {
    expect(quietUntil(at, { quiet_hours: { start: "22:00", end: "07:00" }, time_zone: "UTC" }).toISOString()).toBe(
      "2026-11-29T07:00:00.000Z",
    );
    // 23:30 UTC is 00:30 in Paris (UTC+1 in November): quiet until 07:00 Paris, 06:00 UTC.
    expect(quietUntil(at, { quiet_hours: { start: "00:00", end: "07:00" }, time_zone: "Europe/Paris" }).toISOString()).toBe(
      "2026-11-29T06:00:00.000Z",
    );
  });
});
