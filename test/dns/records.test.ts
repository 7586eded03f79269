import { describe, expect, it } from "vitest";
import { type RecordInput, validateRecord, validateTtl } from "../../src/core/dns/records";

const DOMAIN = "corp.internal";
const check = (input: Partial<RecordInput>) => validateRecord({ name: "www", type: "A", value: "10.0.0.5", ...input }, DOMAIN);

describe("record type", () => {
  it.each(["A", "AAAA", "CNAME", "TXT"])("accepts %s", (type) => {
    const value = { A: "10.0.0.5", AAAA: "fd00::5", CNAME: "web", TXT: "hello" }[type];
    expect(check({ type, value })).toMatchObject({ ok: true, value: { type } });
  });

  it("upper-cases the type", () => {
    expect(check({ type: " aaaa ", value: "fd00::5" })).toMatchObject({ ok: true, value: { type: "AAAA" } });
  });

  it.each([["MX"], ["SRV"], [""], [1], [undefined]])("refuses %j", (type) => {
    expect(check({ type })).toMatchObject({ ok: false, field: "type", message: "Type must be one of A, AAAA, CNAME, TXT" });
  });
});

describe("record name", () => {
  it.each([
    ["@", "@"],
    [" WWW ", "www"],
    ["db.prod", "db.prod"],
    ["*", "*"],
    ["*.dev", "*.dev"],
    ["a-b.c1", "a-b.c1"],
    ["x".repeat(63), "x".repeat(63)],
  ])("accepts %j as %j", (name, normalised) => {
    expect(check({ name })).toMatchObject({ ok: true, value: { name: normalised } });
  });

  it("accepts underscores for TXT and CNAME names only", () => {
    expect(check({ name: "_acme-challenge", type: "TXT", value: "t" })).toMatchObject({ ok: true, value: { name: "_acme-challenge" } });
    expect(check({ name: "_dmarc.mail", type: "CNAME", value: "policy" })).toMatchObject({ ok: true });
    expect(check({ name: "_acme-challenge", type: "A" })).toMatchObject({
      ok: false,
      field: "name",
      message: expect.stringMatching(/host name/),
    });
    expect(check({ name: "a_b", type: "AAAA", value: "fd00::1" })).toMatchObject({ ok: false, field: "name" });
  });

  it.each([
    ["", /required/],
    ["   ", /required/],
    ["www.corp.internal.", /relative to corp.internal/],
    ["a..b", /Empty label/],
    [".www", /Empty label/],
    ["-www", /hyphen/],
    ["www-", /hyphen/],
    ["w w", /letters, digits/],
    ["wéb", /letters, digits/],
    ["x".repeat(64), /longer than 63/],
    ["a.*", /wildcard/],
    ["*x", /letters, digits/],
    [42, /string/],
  ])("refuses %j", (name, message) => {
    expect(check({ name })).toMatchObject({ ok: false, field: "name", message: expect.stringMatching(message) });
  });

  it("counts the network's domain in the 253-character limit", () => {
    const label = "a".repeat(63);
    const fits = [label, label, label, "a".repeat(253 - 3 * 64 - DOMAIN.length - 1)].join(".");
    expect(`${fits}.${DOMAIN}`.length).toBe(253);
    expect(check({ name: fits })).toMatchObject({ ok: true });
    expect(check({ name: `${fits}a` })).toMatchObject({ ok: false, field: "name", message: expect.stringMatching(/253/) });
  });
});

describe("record value", () => {
  it.each([["10.0.0.5"], [" 192.168.1.255 "], ["0.0.0.0"]])("A accepts %j", (value) => {
    expect(check({ value })).toMatchObject({ ok: true, value: { value: value.trim() } });
  });

  it.each([["010.0.0.5"], ["10.0.5"], ["256.0.0.1"], ["0x0a.0.0.1"], ["fd00::1"], [""], [167772165]])("A refuses %j", (value) => {
    expect(check({ value })).toMatchObject({ ok: false, field: "value", message: expect.stringMatching(/IPv4/) });
  });

  it.each([
    ["FD00:0:0:0::1", "fd00::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["::1", "::1"],
  ])("AAAA stores %j compactly as %j", (value, stored) => {
    expect(check({ type: "AAAA", value })).toMatchObject({ ok: true, value: { value: stored } });
  });

  it.each([["10.0.0.5"], ["fe80::1%eth0"], ["1:2:3:4:5:6:7:8:9"], ["fd00::g"], [""]])("AAAA refuses %j", (value) => {
    expect(check({ type: "AAAA", value })).toMatchObject({ ok: false, field: "value", message: expect.stringMatching(/IPv6/) });
  });

  it.each([
    ["Web", "web"],
    ["db.prod", "db.prod"],
    ["Example.COM.", "example.com."],
    ["_acme.target.", "_acme.target."],
    ["@", "@"],
  ])("CNAME accepts %j as %j", (value, stored) => {
    expect(check({ type: "CNAME", value })).toMatchObject({ ok: true, value: { value: stored } });
  });

  it.each([
    [".", /root/],
    ["", /required/],
    ["a..b", /Empty label/],
    ["*.example.com.", /wildcard/],
    ["web server", /letters, digits/],
    ["10.77.81.2", /A record/],
    ["10.77.81.2.", /A record/],
    [`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.`, /253/],
  ])("CNAME refuses %j", (value, message) => {
    expect(check({ type: "CNAME", value })).toMatchObject({ ok: false, field: "value", message: expect.stringMatching(message) });
  });

  it("refuses a CNAME that points at its own name, relative or absolute", () => {
    expect(check({ type: "CNAME", value: "www" })).toMatchObject({ ok: false, field: "value", message: expect.stringMatching(/own name/) });
    expect(check({ type: "CNAME", value: "www.corp.internal." })).toMatchObject({ ok: false, field: "value" });
  });

  it("keeps TXT text exactly, up to 4000 bytes of UTF-8", () => {
    expect(check({ type: "TXT", value: '  "quoted" \\ é  ' })).toMatchObject({ ok: true, value: { value: '  "quoted" \\ é  ' } });
    expect(check({ type: "TXT", value: "x".repeat(4000) })).toMatchObject({ ok: true });
    expect(check({ type: "TXT", value: "é".repeat(2001) })).toMatchObject({
      ok: false,
      field: "value",
      message: expect.stringMatching(/4002 bytes/),
    });
    expect(check({ type: "TXT", value: "" })).toMatchObject({ ok: false, field: "value", message: expect.stringMatching(/empty/) });
    expect(check({ type: "TXT", value: "bad \ud800 half" })).toMatchObject({
      ok: false,
      field: "value",
      message: expect.stringMatching(/Unicode/),
    });
  });
});

describe("record ttl", () => {
  it("defaults to 300 and accepts 30..86400", () => {
    expect(validateTtl(undefined)).toEqual({ ok: true, value: 300 });
    expect(validateTtl(null)).toEqual({ ok: true, value: 300 });
    expect(check({ ttl: 30 })).toMatchObject({ ok: true, value: { ttl: 30 } });
    expect(check({ ttl: 86400 })).toMatchObject({ ok: true, value: { ttl: 86400 } });
  });

  it.each([[29], [86401], [0], [-1], [300.5], ["300"], [Number.NaN]])("refuses %j", (ttl) => {
    expect(check({ ttl })).toMatchObject({ ok: false, field: "ttl" });
  });

  it("returns the whole normalised record", () => {
    expect(validateRecord({ name: "Six", type: "aaaa", value: "FD00::0:5", ttl: 60 }, DOMAIN)).toEqual({
      ok: true,
      value: { name: "six", type: "AAAA", value: "fd00::5", ttl: 60 },
    });
  });
});
