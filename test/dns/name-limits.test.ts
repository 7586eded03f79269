import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { domainLengthProblem, fullNameProblem, nodeNameProblem, renderZone, validateRecord, type DnsRecord } from "../../src/core/dns";
import { isDomainName } from "../../src/core/dns/names";
import { servedRecords } from "../../src/services/networks/views/served-records";

/**
 * Issue 12, item 7, as a property: whatever names the API accepts (a domain, node names, records),
 * the rendered zone holds only names of at most 253 characters with labels of at most 63, and the
 * zone's own hosts keep their place. The accept/refuse decisions are the functions the API calls.
 */
const char = fc.constantFrom("a", "k", "z", "0", "9");
/** Labels biased to the limits: 1–63 characters, most of them long. */
const label = fc
  .tuple(fc.oneof(fc.integer({ min: 1, max: 63 }), fc.integer({ min: 55, max: 64 })), char, fc.boolean())
  .map(([length, c, hyphen]) => (hyphen && length > 2 ? `${c}${"-".repeat(1)}${c.repeat(length - 2)}` : c.repeat(length)));
const domain = fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join("."));
const recordName = fc.oneof(
  fc.constant("@"),
  fc.constant("ns"),
  fc.constant("hostmaster"),
  fc.constant("*"),
  fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join(".")),
);
const record = fc.record({
  name: recordName,
  type: fc.constantFrom("A", "TXT", "CNAME"),
  value: fc.oneof(
    fc.constant("10.0.0.9"),
    fc.constant("hello"),
    fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join(".")),
  ),
});

/** Every name the zone file mentions: owners, and the names inside NS, SOA and CNAME data. */
function namesIn(zone: string, origin: string): string[] {
  const absolute = (name: string) => (name === "@" ? origin : name.endsWith(".") ? name.slice(0, -1) : `${name}.${origin}`);
  return zone
    .split("\n")
    .filter((line) => line && !line.startsWith("$"))
    .flatMap((line) => {
      const [owner, , , type, data] = line.split("\t") as [string, string, string, string, string];
      const inData = type === "NS" || type === "CNAME" ? [data] : type === "SOA" ? data.split(" ").slice(0, 2) : [];
      return [owner, ...inData].map(absolute);
    });
}

describe("item 7: any accepted set of names renders a zone of legal names", () => {
  it("every owner and target name is at most 253 characters, every label at most 63 (property)", () => {
    fc.assert(
      fc.property(domain, fc.array(label, { maxLength: 6 }), fc.array(record, { maxLength: 6 }), (dnsDomain, nodeNames, inputs) => {
        // What the schemas refuse first: label syntax (DnsDomain, NodeName), then what the domain leaves room for.
        fc.pre(isDomainName(dnsDomain) && domainLengthProblem(dnsDomain) === null);
        const nodes = [...new Set(nodeNames)]
          .filter((name) => name.length <= 63 && nodeNameProblem(name, dnsDomain) === null)
          .map((name, index) => ({ name, address: `10.0.0.${index + 2}`, isGateway: false }));
        const records: DnsRecord[] = inputs
          .map((input) => validateRecord(input, dnsDomain))
          .flatMap((checked) => (checked.ok ? [checked.value] : []));
        const zone = renderZone(dnsDomain, servedRecords(records, nodes, dnsDomain), { nameServerAddress: "10.0.0.1" });
        for (const name of namesIn(zone, dnsDomain)) {
          expect(name.length, name).toBeLessThanOrEqual(253);
          expect(Math.max(...name.split(".").map((part) => part.length)), name).toBeLessThanOrEqual(63);
        }
        // The zone's own hosts are never taken: `ns` is the name server alone, `hostmaster` nobody's.
        expect(zone.split("\n").filter((line) => line.startsWith("ns\t"))).toEqual(["ns\t300\tIN\tA\t10.0.0.1"]);
        expect(zone.split("\n").some((line) => line.startsWith("hostmaster\t"))).toBe(false);
      }),
      { numRuns: 400, seed: 20261123 },
    );
  });

  it("the limits are exact: 253 characters fit, 254 do not; 242 is the longest domain", () => {
    const longest = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(50)].join(".");
    expect(domainLengthProblem(longest)).toBeNull();
    expect(domainLengthProblem(`${longest}e`)).toMatch(/at most 242/);
    expect(nodeNameProblem("x".repeat(10), longest)).toBeNull();
    expect(nodeNameProblem("x".repeat(11), longest)).toMatch(/254 characters/);
    expect(fullNameProblem("alias.", longest)).toBeNull();
    for (const reserved of ["ns", "hostmaster", "@", "*"]) expect(nodeNameProblem(reserved, "corp.internal")).toMatch(/reserved/);
  });
});
