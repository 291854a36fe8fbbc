import { describe, expect, it } from "vitest";
import { addressProblem, ForbiddenAddressError, resolveTarget } from "@/lib/net/guard-address";

// The SSRF guard's ranges, including the IPv6 forms that carry an IPv4 address.

describe("addressProblem", () => {
  it("refuses loopback, private, link-local, CGNAT, multicast, unspecified and their IPv4-mapped forms", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::10.0.0.1",
      "2002:c0a8:0101::1",
      // local-use NAT64 and Teredo reach IPv4 addresses the guard cannot see; documentation
      "64:ff9b:1::1",
      "64:ff9b:1:ffff::a00:1",
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:db8::1",
    ])
      expect(addressProblem(address), address).not.toBeNull();
  });

  it("allows public addresses", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "64:ff9b::8.8.8.8",
      "::ffff:8.8.8.8",
    ])
      expect(addressProblem(address), address).toBeNull();
  });
});

describe("resolveTarget", () => {
  it("refuses a host name that resolves to loopback, and allows it with the flag", async () => {
    await expect(resolveTarget("localhost", false)).rejects.toBeInstanceOf(ForbiddenAddressError);
    await expect(resolveTarget("[::ffff:127.0.0.1]", false)).rejects.toThrow(/WEBHOOKS_ALLOW_PRIVATE_ADDRESSES/);
    const target = await resolveTarget("localhost", true);
    expect(["127.0.0.1", "::1"]).toContain(target.address);
  });

  it("names the setting that would allow it", async () => {
    await expect(resolveTarget("127.0.0.1", false, "REPOSITORIES_ALLOW_PRIVATE_ADDRESSES")).rejects.toThrow(
      /REPOSITORIES_ALLOW_PRIVATE_ADDRESSES=true/,
    );
  });
});
