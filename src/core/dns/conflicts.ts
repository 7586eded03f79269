import { APEX, NAME_SERVER_HOST } from "./names";
import type { DnsRecord } from "./records";

/**
 * Rules a record set must keep so the zone loads in any server. They are checked against the
 * stored set before a write (409 on failure) rather than while rendering, so the renderer never
 * has to choose which of two clashing records to drop.
 */

const describe = (record: DnsRecord) => `${record.type} record at "${record.name}"`;

/**
 * Returns a sentence explaining why `candidate` cannot join `existing`, or null when it can.
 * `ignoreId` leaves out the record being replaced, so an update is checked against the others.
 * Both records are expected in normalised form (validateRecord's output).
 */
export function findRecordConflict(existing: DnsRecord[], candidate: DnsRecord, ignoreId?: string): string | null {
  if (candidate.type === "CNAME" && candidate.name === APEX) {
    // RFC 1034 §3.6.2: the apex always holds SOA and NS, and a CNAME may not share a name.
    return 'A CNAME cannot be placed at the zone apex "@", which always holds the SOA and NS records';
  }
  if (candidate.type === "CNAME" && candidate.name === NAME_SERVER_HOST) {
    // RFC 2181 §10.3: the target of an NS record must not be an alias.
    return `"${NAME_SERVER_HOST}" is the zone's name server host and must have address records, not a CNAME`;
  }
  const sameName = existing.filter((other) => other.name === candidate.name && (ignoreId === undefined || other.id !== ignoreId));
  const duplicate = sameName.find((other) => other.type === candidate.type && other.value === candidate.value);
  if (duplicate) return `An identical ${describe(candidate)} with value "${candidate.value}" already exists`;
  // RFC 1034 §3.6.2 / RFC 2181 §10.1: a name with a CNAME holds no other data, nor a second CNAME.
  const alias = sameName.find((other) => other.type === "CNAME");
  if (alias) {
    return candidate.type === "CNAME"
      ? `"${candidate.name}" already has a CNAME; a name can have only one`
      : `"${candidate.name}" has a CNAME, so it cannot also have ${candidate.type} records`;
  }
  if (candidate.type === "CNAME" && sameName.length > 0) {
    const types = [...new Set(sameName.map((other) => other.type))].sort().join(", ");
    return `"${candidate.name}" already has ${types} records, so it cannot also be a CNAME`;
  }
  return null;
}
