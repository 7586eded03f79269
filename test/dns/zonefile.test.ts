import { describe, expect, it } from "vitest";
import type { DnsRecord } from "../../src/core/dns/records";
import { renderZone, serialFor, zoneEtag } from "../../src/core/dns/zonefile";

const DOMAIN = "corp.internal";
const OPTIONS = { nameServerAddress: "10.0.0.53" };

const rec = (name: string, type: DnsRecord["type"], value: string, ttl = 300, id?: string): DnsRecord => ({ id, name, type, value, ttl });

const RECORDS: DnsRecord[] = [
  rec("www", "A", "10.0.0.10", 300, "r1"),
  rec("www", "A", "10.0.0.9", 300, "r2"),
  rec("www", "AAAA", "fd00::10", 300, "r3"),
  rec("alias", "CNAME", "www", 600, "r4"),
  rec("@", "TXT", "v=spf1 -all", 300, "r5"),
  rec("_acme-challenge", "TXT", 'a "quoted" token', 60, "r6"),
  rec("*.dev", "A", "10.0.0.30", 300, "r7"),
  rec("db.prod", "A", "10.0.1.5", 300, "r8"),
  rec("prod", "TXT", "env", 300, "r9"),
  rec("ext", "CNAME", "example.com.", 300, "r10"),
];

/** A deterministic shuffle (no Math.random, so a failure reproduces). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const serialOf = (zone: string) => Number(/\tSOA\t\S+ \S+ (\d+) /.exec(zone)?.[1]);
const bodyLines = (zone: string) => zone.split("\n").slice(4).filter(Boolean);

describe("renderZone", () => {
  const zone = renderZone(DOMAIN, RECORDS, OPTIONS);

  it("writes $ORIGIN, $TTL, the SOA first, the NS, the ns host and every record", () => {
    const lines = zone.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "$ORIGIN corp.internal.",
      "$TTL 300",
      `@\t300\tIN\tSOA\tns.corp.internal. hostmaster.corp.internal. ${serialOf(zone)} 3600 900 1209600 60`,
      "@\t300\tIN\tNS\tns.corp.internal.",
    ]);
    expect(zone.endsWith("\n")).toBe(true);
    expect(zone).toContain("ns\t300\tIN\tA\t10.0.0.53\n");
    expect(zone).toContain('_acme-challenge\t60\tIN\tTXT\t"a \\"quoted\\" token"\n');
    expect(zone).not.toMatch(/r\d+|20\d\d-\d\d/);
  });

  it("orders records canonically: name from the right, then type code, then address bytes", () => {
    expect(bodyLines(zone).map((line) => line.split("\t").slice(0, 5).join(" "))).toEqual([
      '@ 300 IN TXT "v=spf1 -all"',
      '_acme-challenge 60 IN TXT "a \\"quoted\\" token"',
      "alias 600 IN CNAME www",
      "*.dev 300 IN A 10.0.0.30",
      "ext 300 IN CNAME example.com.",
      "ns 300 IN A 10.0.0.53",
      'prod 300 IN TXT "env"',
      "db.prod 300 IN A 10.0.1.5",
      "www 300 IN A 10.0.0.9",
      "www 300 IN A 10.0.0.10",
      "www 300 IN AAAA fd00::10",
    ]);
  });

  it("renders byte-identical text whatever order the records come in", () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      expect(renderZone(DOMAIN, shuffled(RECORDS, seed), OPTIONS)).toBe(zone);
    }
  });

  it("renders the same bytes after a record is deleted and created again with a new id", () => {
    const withoutAlias = RECORDS.filter((r) => r.id !== "r4");
    expect(renderZone(DOMAIN, withoutAlias, OPTIONS)).not.toBe(zone);
    expect(renderZone(DOMAIN, [...withoutAlias, rec("alias", "CNAME", "www", 600, "r99")], OPTIONS)).toBe(zone);
  });

  it("derives the serial from the content: it changes with any record and with nothing else", () => {
    const serial = serialOf(zone);
    expect(serial).toBeGreaterThanOrEqual(1);
    expect(serial).toBeLessThanOrEqual(4294967295);
    expect(serialOf(renderZone(DOMAIN, shuffled(RECORDS, 7), OPTIONS))).toBe(serial);
    const changes: DnsRecord[][] = [
      [...RECORDS, rec("new", "A", "10.0.0.77")],
      RECORDS.slice(1),
      RECORDS.map((r) => (r.id === "r1" ? { ...r, value: "10.0.0.11" } : r)),
      RECORDS.map((r) => (r.id === "r4" ? { ...r, ttl: 601 } : r)),
    ];
    const serials = changes.map((records) => serialOf(renderZone(DOMAIN, records, OPTIONS)));
    expect(new Set([serial, ...serials]).size).toBe(5);
    expect(serialOf(renderZone("other.internal", RECORDS, OPTIONS))).not.toBe(serial);
    expect(serialOf(renderZone(DOMAIN, RECORDS, { nameServerAddress: "10.0.0.54" }))).not.toBe(serial);
  });

  it("keeps the serial away from 0", () => {
    expect(serialFor("")).toBeGreaterThan(0);
  });

  it("uses an IPv6 name server address as AAAA, and a record set's own ns addresses instead", () => {
    expect(renderZone(DOMAIN, [], { nameServerAddress: "FD00::53" })).toContain("ns\t300\tIN\tAAAA\tfd00::53\n");
    const own = renderZone(DOMAIN, [rec("ns", "AAAA", "fd00::1")], OPTIONS);
    expect(own).toContain("ns\t300\tIN\tAAAA\tfd00::1\n");
    expect(own).not.toContain("10.0.0.53");
    // A TXT at ns is not an address, so the server's own address is still added.
    expect(renderZone(DOMAIN, [rec("ns", "TXT", "hi")], OPTIONS)).toContain("ns\t300\tIN\tA\t10.0.0.53\n");
  });

  it("gives every record of one name and type the smallest TTL among them", () => {
    const text = renderZone(
      DOMAIN,
      [rec("www", "A", "10.0.0.1", 600), rec("www", "A", "10.0.0.2", 120), rec("www", "TXT", "t", 900)],
      OPTIONS,
    );
    expect(text).toContain('www\t120\tIN\tA\t10.0.0.1\nwww\t120\tIN\tA\t10.0.0.2\nwww\t900\tIN\tTXT\t"t"\n');
  });

  it("writes an exact duplicate once", () => {
    const text = renderZone(DOMAIN, [rec("www", "A", "10.0.0.1", 300, "a"), rec("www", "A", "10.0.0.1", 300, "b")], OPTIONS);
    expect(text.match(/10\.0\.0\.1\n/g)).toHaveLength(1);
  });

  it("normalises the domain and refuses bad inputs", () => {
    expect(renderZone("Corp.Internal.", RECORDS, OPTIONS)).toBe(zone);
    expect(() => renderZone("bad domain", RECORDS, OPTIONS)).toThrow(/not a valid domain/);
    expect(() => renderZone(DOMAIN, RECORDS, { nameServerAddress: "ns.example" })).toThrow(/not an IPv4 or IPv6/);
  });
});

describe("zoneEtag", () => {
  it("is a strong, quoted SHA-256 of the bytes", async () => {
    const zone = renderZone(DOMAIN, RECORDS, OPTIONS);
    const tag = await zoneEtag(zone);
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await zoneEtag(renderZone(DOMAIN, shuffled(RECORDS, 9), OPTIONS))).toBe(tag);
    expect(await zoneEtag(`${zone} `)).not.toBe(tag);
    expect(await zoneEtag("")).toBe('"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"');
  });
});
