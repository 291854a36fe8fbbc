import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HttpPort } from "@/lib/runner-process/http-port";

// The runner's side of a refused claim (RUNNERS_REQUIRE_SANDBOX, docs/runners.md "Runners per
// workspace"): the server's sentence goes to the runner's log once, not on every claim, and the
// runner says when it gets jobs again. A local server stands in for the board.

const REFUSED = "This runner gets no jobs: it reported no sandbox";
let answers: { refused: string | null }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    const next = answers.shift() ?? { refused: null };
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ job: null, ...next }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

afterAll(() => server?.close());

describe("a runner whose claims are refused", () => {
  it("logs the server's reason once, and once more when jobs come again", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const port = new HttpPort(url, "tbn_test", { version: "1", sandbox: "none" }, () => {}, new AbortController().signal);
      answers = [{ refused: REFUSED }, { refused: REFUSED }, { refused: REFUSED }, { refused: null }, { refused: null }];
      for (let i = 0; i < 5; i++) expect(await port.claim(1)).toEqual([]);
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([`[taskboard] runner: ${REFUSED}`]);
      expect(logs.mock.calls.map((call) => String(call[0]))).toEqual(["[taskboard] runner: the server hands this runner jobs again"]);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
