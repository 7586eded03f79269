import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DnsRecord, type RecordInput, renderZone, validateRecord } from "../../../src/core/dns";
import { checkZone, type KnotServer, missingDnsTools, startKnot } from "./dns-server";
import { countTxtStrings, decodeTxtPresentation } from "./presentation";
import { findServingMismatches } from "./served-records";

const DOMAIN = "branch-7.internal";
const NAME_SERVER = "10.20.0.53";
const LONG_TXT = Array.from({ length: 60 }, (_, i) => `chunk-${String(i).padStart(4, "0")}`).join("");
const QUOTED_TXT = 'He said "hi" \\ then left; (really) — café ✓\tend';

const INPUTS: RecordInput[] = [
  { name: "@", type: "A", value: "10.20.0.1" },
  { name: "@", type: "TXT", value: "v=spf1 -all" },
  { name: "www", type: "A", value: "10.20.0.11", ttl: 600 },
  { name: "www", type: "A", value: "10.20.0.10", ttl: 600 },
  { name: "six", type: "AAAA", value: "FD00:20:0:0::10" },
  { name: "alias", type: "CNAME", value: "www" },
  { name: "external", type: "CNAME", value: "Example.COM." },
  { name: "home", type: "CNAME", value: "@" },
  { name: "*.dev", type: "A", value: "10.20.0.30" },
  { name: "_acme-challenge", type: "TXT", value: "token-123" },
  { name: "long", type: "TXT", value: LONG_TXT },
  { name: "quoted", type: "TXT", value: QUOTED_TXT },
];

function validated(inputs: RecordInput[]): DnsRecord[] {
  return inputs.map((input) => {
    const result = validateRecord(input, DOMAIN);
    if (!result.ok) throw new Error(`Fixture ${JSON.stringify(input)} is invalid: ${result.message}`);
    return result.value;
  });
}

const missing = missingDnsTools();
if (missing.length > 0) {
  console.warn(`\n!!! SKIPPING real DNS server tests: ${missing.join(", ")} not installed !!!\n`);
}

describe.skipIf(missing.length > 0)("rendered zone on a real DNS server", () => {
  const records = validated(INPUTS);
  const zone = renderZone(DOMAIN, records, { nameServerAddress: NAME_SERVER });
  let knot: KnotServer;

  beforeAll(async () => {
    knot = await startKnot(zone, DOMAIN);
  });
  afterAll(async () => {
    await knot?.stop();
  });

  it("passes named-checkzone with strict checks", async () => {
    const check = await checkZone(DOMAIN, zone);
    expect(check.output).toMatch(/^OK$/m);
    expect(check.ok).toBe(true);
  });

  it("answers every A, AAAA, CNAME and TXT record as stored", async () => {
    expect(LONG_TXT.length).toBe(600);
    expect(await findServingMismatches(knot, DOMAIN, records)).toEqual([]);
  });

  it("serves the long TXT as three strings and the quoted TXT byte for byte", async () => {
    const [long] = await knot.query("long", "TXT");
    expect(countTxtStrings(long!)).toBe(3);
    expect(decodeTxtPresentation(long!)).toBe(LONG_TXT);
    expect((await knot.query("quoted", "TXT")).map(decodeTxtPresentation)).toEqual([QUOTED_TXT]);
  });

  it("follows an in-zone CNAME, matches the wildcard and answers the name server host", async () => {
    expect((await knot.query("alias", "A")).sort()).toEqual(["10.20.0.10", "10.20.0.11", `www.${DOMAIN}.`]);
    expect(await knot.query("anything.dev", "A")).toEqual(["10.20.0.30"]);
    expect(await knot.query("ns", "A")).toEqual([NAME_SERVER]);
    expect(await knot.query("@", "NS")).toEqual([`ns.${DOMAIN}.`]);
    expect(await knot.query("missing", "A")).toEqual([]);
  });

  it("serves the SOA serial written in the file", async () => {
    const [soa] = await knot.query("@", "SOA");
    const serial = /\tSOA\t\S+ \S+ (\d+) /.exec(zone)?.[1];
    expect(soa!.split(" ")[2]).toBe(serial);
  });

  it("refuses a zone that breaks the rules named-checkzone enforces", async () => {
    const broken = zone.replace("alias\t300\tIN\tCNAME\twww", "alias\t300\tIN\tCNAME\twww\nalias\t300\tIN\tA\t10.20.0.99");
    expect(broken).not.toBe(zone);
    const check = await checkZone(DOMAIN, broken);
    expect(check.ok).toBe(false);
    expect(check.output).toMatch(/CNAME and other data/);
  });
});
