import { describe, expect, it } from "vitest";
import { endedRunReason, WIND_DOWN_MS } from "@/lib/runs/ended-run";

// Which runner calls a run still takes: all while it runs; once it has ended, only its wind-down
// (log entries, the diff, the bundle), within WIND_DOWN_MS of its end and before its runner's finish.

const now = new Date("2026-11-28T03:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const lease = new Date(now.getTime() + 30_000);

describe("endedRunReason", () => {
  it("takes every call while the run is running or waiting for input", () => {
    for (const status of ["running", "waiting_for_input"]) {
      expect(endedRunReason({ status, finishedAt: null, leaseExpiresAt: lease }, { now })).toBeNull();
      expect(endedRunReason({ status, finishedAt: null, leaseExpiresAt: lease }, { now, windDown: "the diff is" })).toBeNull();
    }
  });

  it("refuses every other call on an ended run, in words", () => {
    for (const status of ["succeeded", "failed", "cancelled", "timed_out"]) {
      const reason = endedRunReason({ status, finishedAt: ago(1000), leaseExpiresAt: lease }, { now });
      expect(reason).toBe(`The run has ended (${status}): its runner can no longer add to it or change it`);
    }
  });

  it("takes the wind-down of a run the server ended, until the runner's finish, within the window", () => {
    const ended = { status: "cancelled", finishedAt: ago(WIND_DOWN_MS - 1000), leaseExpiresAt: lease };
    expect(endedRunReason(ended, { now, windDown: "the diff is" })).toBeNull();
    expect(endedRunReason({ ...ended, leaseExpiresAt: null }, { now, windDown: "the diff is" })).toBe(
      "The run has ended (cancelled) and its runner reported its outcome: the diff is taken only before that",
    );
    expect(endedRunReason({ ...ended, finishedAt: ago(WIND_DOWN_MS + 5000) }, { now, windDown: "log entries are" })).toBe(
      "The run has ended (cancelled) 65 s ago: log entries are taken only within 60 s of its end",
    );
  });
});
