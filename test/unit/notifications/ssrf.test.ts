import { describe, expect, it } from "vitest";
import { assertTargetAllowed, classifyAddress } from "../../../functions/core/notifications/index.ts";

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.10", "documentation"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.5", "documentation"],
    ["198.18.0.1", "reserved"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001:82a::200e", "public"],
    ["2002:c0a8:0101::1", "reserved"],
    ["2001:0:4136:e378::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:8.8.8.8", "public"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::8.8.8.8", "public"],
    ["::127.0.0.1", "reserved"],
    ["100::1", "reserved"],
    ["not-an-ip", "invalid"],
    ["256.1.1.1", "invalid"],
    ["0177.0.0.1", "invalid"],
    ["1.2.3", "invalid"],
    ["1::2::3", "invalid"],
    ["1:2:3:4:5:6:7:8:9", "invalid"],
    ["12345::1", "invalid"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip).kind).toBe(kind);
  });

  it("says how an IPv4 address was embedded", () => {
    expect(classifyAddress("::ffff:192.168.0.1")).toEqual({
      kind: "private",
      family: 6,
      via: "ipv4-mapped",
      embeddedIpv4: "192.168.0.1",
    });
    expect(classifyAddress("64:ff9b::7f00:1")).toMatchObject({
      kind: "loopback",
      via: "nat64",
      embeddedIpv4: "127.0.0.1",
    });
    expect(classifyAddress("1.1.1.1")).toEqual({ kind: "public", family: 4, via: null, embeddedIpv4: null });
  });
});

describe("assertTargetAllowed", () => {
  it.each([
    ["https public", "https://hooks.example.com/x", ["93.184.216.34"], "production", true],
    ["https public IPv6", "https://hooks.example.com/x", ["2606:4700::1"], "production", true],
    ["http in production", "http://hooks.example.com/x", ["93.184.216.34"], "production", false],
    ["loopback in production", "https://localhost/x", ["127.0.0.1"], "production", false],
    ["private in production", "https://intranet/x", ["10.0.0.5"], "production", false],
    ["metadata service", "https://metadata/x", ["169.254.169.254"], "production", false],
    ["one bad address among good", "https://h.example/x", ["93.184.216.34", "10.0.0.1"], "production", false],
    ["mapped loopback", "https://h.example/x", ["::ffff:127.0.0.1"], "production", false],
    ["IP-literal loopback host", "https://127.0.0.1/x", [], "production", false],
    ["hex IP-literal normalised by URL", "https://0x7f.1/x", [], "production", false],
    ["IPv6 literal loopback", "https://[::1]:8443/x", [], "production", false],
    ["no addresses", "https://nowhere.example/x", [], "production", false],
    ["credentials", "https://u:p@hooks.example.com/x", ["93.184.216.34"], "production", false],
    ["ftp", "ftp://hooks.example.com/x", ["93.184.216.34"], "local", false],
    ["local http loopback", "http://localhost:4000/hook", ["127.0.0.1", "::1"], "local", true],
    ["local http public", "http://hooks.example.com/x", ["93.184.216.34"], "local", true],
    ["local private still refused", "http://router/x", ["192.168.1.1"], "local", false],
    ["local link-local refused", "http://x/x", ["169.254.169.254"], "local", false],
    ["not a URL", "hooks", ["93.184.216.34"], "production", false],
  ] as const)("%s", (_name, url, addresses, mode, allowed) => {
    expect(assertTargetAllowed(url, addresses, mode).allowed).toBe(allowed);
  });

  it("gives a typed reason", () => {
    expect(assertTargetAllowed("http://h.example/", ["1.1.1.1"], "production")).toMatchObject({
      allowed: false,
      reason: "scheme-not-allowed",
    });
    expect(assertTargetAllowed("https://h.example/", ["10.0.0.1"], "production")).toMatchObject({
      allowed: false,
      reason: "address-not-allowed",
      address: "10.0.0.1",
      kind: "private",
    });
    expect(assertTargetAllowed("https://h.example/", [], "production")).toMatchObject({
      reason: "no-addresses",
    });
    expect(assertTargetAllowed("::", [], "production")).toMatchObject({ reason: "invalid-url" });
  });
});
