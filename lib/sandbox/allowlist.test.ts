import { describe, expect, it } from "vitest";
import { hostPortOf, isAllowed, isLoopback, parseAllowEntry } from "@/lib/sandbox/allowlist";

describe("network_allow entries", () => {
  it("parses host, host:port, wildcards and bracketed IPv6", () => {
    expect(parseAllowEntry("api.anthropic.com")).toEqual({ host: "api.anthropic.com", port: null, wildcard: false });
    expect(parseAllowEntry("127.0.0.1:8080")).toEqual({ host: "127.0.0.1", port: 8080, wildcard: false });
    expect(parseAllowEntry("*.Example.com")).toEqual({ host: "example.com", port: null, wildcard: true });
    expect(parseAllowEntry("[::1]:9")).toEqual({ host: "::1", port: 9, wildcard: false });
    for (const bad of ["", "http://x.com", "x.com:0", "x.com:70000", "a b", "x.com/path", "*", "user@x.com"]) {
      expect(parseAllowEntry(bad)).toBeNull();
    }
  });

  it("matches a host alone on 443 and 80 only, a host:port on that port only", () => {
    const entries = ["api.openai.com", "127.0.0.1:5000", "*.googleapis.com"].map((e) => parseAllowEntry(e)!);
    expect(isAllowed(entries, "api.openai.com", 443)).toBe(true);
    expect(isAllowed(entries, "API.OPENAI.COM.", 80)).toBe(true);
    expect(isAllowed(entries, "api.openai.com", 22)).toBe(false);
    expect(isAllowed(entries, "127.0.0.1", 5000)).toBe(true);
    expect(isAllowed(entries, "127.0.0.1", 5432)).toBe(false);
    expect(isAllowed(entries, "generativelanguage.googleapis.com", 443)).toBe(true);
    expect(isAllowed(entries, "googleapis.com", 443)).toBe(false);
    expect(isAllowed(entries, "evil-googleapis.com", 443)).toBe(false);
  });

  it("knows loopback hosts and a URL's host and port", () => {
    expect(isLoopback("localhost")).toBe(true);
    expect(isLoopback("[::1]")).toBe(true);
    expect(isLoopback("10.0.0.1")).toBe(false);
    expect(hostPortOf("http://127.0.0.1:3000/api")).toEqual({ host: "127.0.0.1", port: 3000 });
    expect(hostPortOf("https://board.example.com")).toEqual({ host: "board.example.com", port: 443 });
    expect(hostPortOf("file:///etc/passwd")).toBeNull();
  });
});
