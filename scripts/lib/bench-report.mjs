import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const START = "<!-- bench:api:start -->";
const END = "<!-- bench:api:end -->";

/** Replaces what lies between the bench markers of docs/PERFORMANCE.md (creating file or markers). */
export function writeBetweenMarkers(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const block = `${START}\n${content.trim()}\n${END}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Performance\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start ? current.slice(0, start) + block + current.slice(end + END.length) : `${current.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}

/** @param {{db: string, name: string, statements: string, bytes: number, rps: number, p50: number, p99: number, mean: number, aloneP50: number, aloneP99: number, non2xx: number}[]} rows */
export function markdownTable(rows) {
  const lines = [
    "| Database | Request | SQL statements | response kB | req/s | mean ms | p50 ms | p99 ms | alone p50 ms | alone p99 ms | non-2xx |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.db} | ${r.name} | ${r.statements} | ${(r.bytes / 1000).toFixed(1)} | ${Math.round(r.rps)} | ${r.mean.toFixed(1)} | ${r.p50} | ${r.p99} | ${r.aloneP50} | ${r.aloneP99} | ${r.non2xx} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Writes one bench's section into docs/PERFORMANCE.md: `lines` become the text between the
 * `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` markers, which are added (at the end)
 * when the page does not have them yet.
 */
export function writeBenchSection(name, lines) {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..", "docs", "PERFORMANCE.md");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = [start, ...lines, end].join("\n");
  const text = fs.readFileSync(file, "utf8");
  const at = text.indexOf(start);
  const to = text.indexOf(end);
  fs.writeFileSync(
    file,
    at >= 0 && to > at ? text.slice(0, at) + section + text.slice(to + end.length) : `${text.trimEnd()}\n\n${section}\n`,
  );
}

/**
 * A JSON client for the benches: `(method, path, body?, token?) → {status, body}`. `headers`: sent
 * with every request (`{ prefer: "wait=reactions" }` for a bench that reads reactions' effects next).
 */
export function benchClient(url, { headers: always = {} } = {}) {
  return async (method, urlPath, json, token) => {
    const headers = { ...always };
    if (token) headers.authorization = `Bearer ${token}`;
    if (json !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(url + urlPath, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/** Polls `check` every `everyMs` until it is truthy; throws after `timeoutMs`. */
export async function until(check, everyMs = 20, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(everyMs);
  }
}
