import { afterAll, beforeAll } from "vitest";

// A worker runs file after file in one process (vitest.config.mts, `isolate: false`), so a file that
// leaves the environment changed changes the files after it, in an order that varies from run to
// run. This fails the file that did, every time, naming what it left.
let before: Record<string, string | undefined>;

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => before[name] !== process.env[name]).sort();
  if (changed.length > 0) throw new Error(`This file left the environment changed (${changed.join(", ")}): restore it in an afterAll.`);
});
