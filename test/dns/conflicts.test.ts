import { describe, expect, it } from "vitest";
import { findRecordConflict } from "../../src/core/dns/conflicts";
import type { DnsRecord } from "../../src/core/dns/records";

const rec = (id: string, name: string, type: DnsRecord["type"], value: string): DnsRecord => ({ id, name, type, value, ttl: 300 });

const existing: DnsRecord[] = [
  rec("r1", "www", "A", "10.0.0.1"),
  rec("r2", "www", "TXT", "hello"),
  rec("r3", "alias", "CNAME", "www"),
  rec("r4", "@", "A", "10.0.0.2"),
];

describe("findRecordConflict", () => {
  it("allows records that share a name and type with different values", () => {
    expect(findRecordConflict(existing, rec("new", "www", "A", "10.0.0.9"))).toBeNull();
    expect(findRecordConflict(existing, rec("new", "www", "AAAA", "fd00::1"))).toBeNull();
    expect(findRecordConflict(existing, rec("new", "other", "CNAME", "www"))).toBeNull();
    expect(findRecordConflict([], rec("new", "x", "TXT", "t"))).toBeNull();
  });

  it("refuses an exact duplicate of name, type and value", () => {
    expect(findRecordConflict(existing, rec("new", "www", "A", "10.0.0.1"))).toMatch(/identical A record at "www"/);
  });

  it("refuses another record beside a CNAME", () => {
    expect(findRecordConflict(existing, rec("new", "alias", "A", "10.0.0.3"))).toBe(
      '"alias" has a CNAME, so it cannot also have A records',
    );
    expect(findRecordConflict(existing, rec("new", "alias", "TXT", "x"))).toMatch(/has a CNAME/);
  });

  it("refuses a CNAME beside other records", () => {
    expect(findRecordConflict(existing, rec("new", "www", "CNAME", "elsewhere"))).toBe(
      '"www" already has A, TXT records, so it cannot also be a CNAME',
    );
  });

  it("refuses a second CNAME at one name", () => {
    expect(findRecordConflict(existing, rec("new", "alias", "CNAME", "other"))).toMatch(/already has a CNAME; a name can have only one/);
  });

  it("refuses a CNAME at the apex and at the name server host, even in an empty zone", () => {
    expect(findRecordConflict([], rec("new", "@", "CNAME", "www"))).toMatch(/apex/);
    expect(findRecordConflict([], rec("new", "ns", "CNAME", "www"))).toMatch(/name server host/);
    expect(findRecordConflict([], rec("new", "ns", "A", "10.0.0.53"))).toBeNull();
  });

  it("ignores the record being replaced", () => {
    // Turning r3 from a CNAME into an A record, or changing its target, is not a clash with itself.
    expect(findRecordConflict(existing, rec("r3", "alias", "A", "10.0.0.3"), "r3")).toBeNull();
    expect(findRecordConflict(existing, rec("r3", "alias", "CNAME", "other"), "r3")).toBeNull();
    // Moving www's TXT to a CNAME still clashes with www's A record.
    expect(findRecordConflict(existing, rec("r2", "www", "CNAME", "x"), "r2")).toMatch(/already has A records/);
    // Re-saving r1 unchanged is not a duplicate of itself, but is one of another record.
    expect(findRecordConflict(existing, rec("r1", "www", "A", "10.0.0.1"), "r1")).toBeNull();
    expect(findRecordConflict(existing, rec("r2", "www", "A", "10.0.0.1"), "r2")).toMatch(/identical/);
  });

  it("treats names as distinct nodes: a CNAME does not block its subdomains", () => {
    expect(findRecordConflict(existing, rec("new", "x.alias", "A", "10.0.0.4"))).toBeNull();
  });
});
