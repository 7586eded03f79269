import ipaddr from "ipaddr.js";
import { absoluteName } from "../../../src/core/dns/names";
import type { DnsRecord } from "../../../src/core/dns/records";
import type { KnotServer } from "./dns-server";
import { decodeTxtPresentation } from "./presentation";

/**
 * Compares what a running server answers with the record set it was meant to serve, one query
 * per (name, type). Works on stored records (validateRecord's output), so the same check applies
 * to a zone rendered directly and to one fetched from the API.
 */

/** Both sides in one spelling: addresses canonical, names absolute with a dot, TXT decoded. */
function expectedAnswer(record: DnsRecord, domain: string): string {
  if (record.type === "CNAME") return `${absoluteName(record.value, domain)}.`;
  return record.value;
}

function servedAnswer(type: DnsRecord["type"], line: string): string {
  if (type === "TXT") return decodeTxtPresentation(line);
  if (type === "AAAA") return ipaddr.IPv6.isValid(line) ? ipaddr.IPv6.parse(line).toString() : line;
  return line.toLowerCase();
}

export interface Mismatch {
  name: string;
  type: string;
  expected: string[];
  served: string[];
}

export async function findServingMismatches(server: KnotServer, domain: string, records: DnsRecord[]): Promise<Mismatch[]> {
  const groups = new Map<string, DnsRecord[]>();
  for (const record of records) {
    const key = `${record.name} ${record.type}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const mismatches: Mismatch[] = [];
  for (const group of groups.values()) {
    const { name, type } = group[0]!;
    // A wildcard owner is not a name one can ask for; ask for a name it covers instead.
    const asked = name.startsWith("*") ? name.replace("*", "covered-by-wildcard") : name;
    const expected = [...new Set(group.map((record) => expectedAnswer(record, domain)))].sort();
    const served = (await server.query(asked, type)).map((line) => servedAnswer(type, line)).sort();
    if (JSON.stringify(expected) !== JSON.stringify(served)) mismatches.push({ name, type, expected, served });
  }
  return mismatches;
}
