import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

// Times sequential GETs of one path from a thread of its own: the bench's main thread parses the
// live log it reads (thousands of entries a second), and a response waiting there for its turn
// would count that parsing as the server's latency. A browser showing the board is a client of its
// own too.

/** Sequential GETs of `urlPath` for `ms` (after `delayMs`), 50 ms apart: their durations, in ms. */
export function timeRequests(url, urlPath, token, ms, delayMs = 0) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url, urlPath, token, ms, delayMs } });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

if (!isMainThread && workerData?.urlPath) {
  const { url, urlPath, token, ms, delayMs } = workerData;
  const sleep = (wait) => new Promise((resolve) => setTimeout(resolve, wait));
  await sleep(delayMs);
  const times = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const at = performance.now();
    const response = await fetch(url + urlPath, { headers: { authorization: `Bearer ${token}` } });
    await response.text();
    if (response.status !== 200) throw new Error(`${urlPath}: HTTP ${response.status}`);
    times.push(performance.now() - at);
    await sleep(50);
  }
  parentPort.postMessage(times);
}
