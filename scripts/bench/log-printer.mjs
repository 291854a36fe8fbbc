#!/usr/bin/env node
// The log-ingestion bench's agent (bench-runners-logs.mjs): `LINES_PER_SECOND` lines a second for
// `SECONDS` seconds, in 10 ms ticks, each line carrying the clock when it was printed (ms), so the
// bench can tell how long a line took to become readable through the API.
const perSecond = Number(process.env.LINES_PER_SECOND ?? 200);
const seconds = Number(process.env.SECONDS_TO_PRINT ?? 30);
const started = Date.now();
let n = 0;
// FULL_SPEED=1 (`BENCH_RUNNERS=full`): 8,000-character lines as fast as the pipe takes them.
if (process.env.FULL_SPEED === "1") {
  const pad = "l".repeat(8000);
  while (Date.now() - started < seconds * 1000) {
    let block = "";
    for (let i = 0; i < 16; i++) block += `t=${Date.now()} n=${n++} ${pad}\n`;
    if (!process.stdout.write(block)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
  process.exit(0);
}
while (Date.now() - started < seconds * 1000) {
  const due = Math.floor(((Date.now() - started) / 1000) * perSecond);
  let block = "";
  for (; n < due; n++) block += `t=${Date.now()} n=${n} ${"l".repeat(40)}\n`;
  if (block && !process.stdout.write(block)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  await new Promise((resolve) => setTimeout(resolve, 10));
}
