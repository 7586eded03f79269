import { describe, expect, it } from "vitest";
import { mustParseCidr } from "../../src/core/net/cidr";
import { allocateAddress, canonicalAddress, checkRequestedAddress } from "../../src/core/net/ipam";

const block = (text: string) => mustParseCidr(text);

describe("allocateAddress", () => {
  it("skips the network address of a /24 and hands out addresses lowest first", () => {
    expect(allocateAddress(block("10.0.0.0/24"), [])).toBe("10.0.0.1");
    expect(allocateAddress(block("10.0.0.0/24"), ["10.0.0.1", "10.0.0.2", "10.0.0.4"])).toBe("10.0.0.3");
  });

  it("never hands out the broadcast address and returns null when a /24 is full", () => {
    const allButLast = Array.from({ length: 253 }, (_, i) => `10.0.0.${i + 1}`);
    expect(allocateAddress(block("10.0.0.0/24"), allButLast)).toBe("10.0.0.254");
    expect(allocateAddress(block("10.0.0.0/24"), [...allButLast, "10.0.0.254"])).toBeNull();
  });

  it("uses the two middle addresses of a /30", () => {
    const cidr = block("192.168.7.4/30");
    expect(allocateAddress(cidr, [])).toBe("192.168.7.5");
    expect(allocateAddress(cidr, ["192.168.7.5"])).toBe("192.168.7.6");
    expect(allocateAddress(cidr, ["192.168.7.5", "192.168.7.6"])).toBeNull();
  });

  it("uses both addresses of a /31 (RFC 3021) and the one of a /32", () => {
    expect(allocateAddress(block("10.9.9.8/31"), [])).toBe("10.9.9.8");
    expect(allocateAddress(block("10.9.9.8/31"), ["10.9.9.8"])).toBe("10.9.9.9");
    expect(allocateAddress(block("10.9.9.8/31"), ["10.9.9.8", "10.9.9.9"])).toBeNull();
    expect(allocateAddress(block("10.9.9.7/32"), [])).toBe("10.9.9.7");
    expect(allocateAddress(block("10.9.9.7/32"), ["10.9.9.7"])).toBeNull();
  });

  it("skips the IPv6 subnet-router anycast address and writes the compact form", () => {
    expect(allocateAddress(block("fd00:1::/64"), [])).toBe("fd00:1::1");
    expect(allocateAddress(block("fd00:1::/64"), ["fd00:1::1"])).toBe("fd00:1::2");
  });

  it("uses both addresses of an IPv6 /127 and the one of a /128", () => {
    expect(allocateAddress(block("fd00::a/127"), [])).toBe("fd00::a");
    expect(allocateAddress(block("fd00::a/127"), ["fd00::a"])).toBe("fd00::b");
    expect(allocateAddress(block("fd00::a/127"), ["fd00::a", "fd00::b"])).toBeNull();
    expect(allocateAddress(block("fd00::7/128"), [])).toBe("fd00::7");
    expect(allocateAddress(block("fd00::7/128"), ["fd00::7"])).toBeNull();
  });

  it("reuses an address once it is no longer in the used set", () => {
    const cidr = block("10.0.0.0/29");
    expect(allocateAddress(cidr, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])).toBe("10.0.0.4");
    expect(allocateAddress(cidr, ["10.0.0.1", "10.0.0.3"])).toBe("10.0.0.2");
  });

  it("treats differently written forms of one IPv6 address as the same address", () => {
    const used = ["fd00:0::1", "FD00:0000:0000:0000:0000:0000:0000:0002", "fd00::3/64"];
    expect(allocateAddress(block("fd00::/64"), used)).toBe("fd00::4");
  });

  it("ignores used entries of the other family or that are not addresses", () => {
    expect(allocateAddress(block("10.0.0.0/24"), ["fd00::1", "garbage", "10.0.0.1"])).toBe("10.0.0.2");
  });

  it("stays fast with 10,000 addresses used in a /16", () => {
    const used: string[] = [];
    for (let i = 1; i <= 10_000; i++) used.push(`10.1.${i >> 8}.${i & 0xff}`);
    // The network address 10.1.0.0 is i = 0, so 1..10000 fill a contiguous block starting at .1.
    expect(allocateAddress(block("10.1.0.0/16"), used)).toBe("10.1.39.17");
  });
});

describe("checkRequestedAddress", () => {
  const cidr = block("10.0.0.0/24");

  it("accepts a free usable address and returns it canonically", () => {
    expect(checkRequestedAddress(cidr, "10.0.0.42", ["10.0.0.1"])).toEqual({ ok: true, address: "10.0.0.42" });
    expect(checkRequestedAddress(block("fd00::/64"), "FD00:0::5", [])).toEqual({ ok: true, address: "fd00::5" });
  });

  it.each([
    ["fd00::1", "is not an IPv4 address"],
    ["10.0.0", "is not an IPv4 address"],
    ["10.0.0.5/32", "is not an IPv4 address"],
    ["10.0.1.5", "is outside 10.0.0.0/24"],
    ["10.0.0.0", "is the network address of 10.0.0.0/24"],
    ["10.0.0.255", "is the broadcast address of 10.0.0.0/24"],
    ["10.0.0.7", "is already in use"],
  ])("refuses %s (%s)", (address, reason) => {
    const result = checkRequestedAddress(cidr, address, ["10.0.0.7"]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("applies the IPv6 rules: anycast refused, used compared canonically, /127 both usable", () => {
    const six = block("fd00::/64");
    expect(checkRequestedAddress(six, "fd00::", [])).toEqual({
      ok: false,
      reason: "fd00:: is the subnet-router anycast address of fd00::/64",
    });
    expect(checkRequestedAddress(six, "fd00::5", ["fd00:0::5"])).toEqual({ ok: false, reason: "fd00::5 is already in use" });
    expect(checkRequestedAddress(six, "10.0.0.1", [])).toEqual({ ok: false, reason: "10.0.0.1 is not an IPv6 address" });
    expect(checkRequestedAddress(block("fd00::a/127"), "fd00::a", [])).toEqual({ ok: true, address: "fd00::a" });
    expect(checkRequestedAddress(block("10.9.9.8/31"), "10.9.9.9", [])).toEqual({ ok: true, address: "10.9.9.9" });
  });

  it("canonicalises addresses", () => {
    expect(canonicalAddress("fd00:0:0::0:5")).toBe("fd00::5");
    expect(canonicalAddress("010.0.0.1")).toBeNull();
  });
});
