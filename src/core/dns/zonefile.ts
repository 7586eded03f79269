import ipaddr from "ipaddr.js";
import { NAME_SERVER_HOST } from "./names";
import { APEX, compareOwnerNames, isDomainName } from "./names";
import { SOA_CONTACT_HOST } from "./reserved";
import { TTL_DEFAULT, type DnsRecord, type RecordType } from "./records";
import { renderTxtData } from "./txt";

/**
 * The zone as an RFC 1035 master file. The output is a pure function of the domain, the record
 * set and the name server's address: no ids, clocks or counters, and records in canonical order,
 * so the same set always renders the same bytes whatever order it was stored or created in.
 */

/** SOA timers (RFC 1912 §2.2 ranges). Only the negative-caching time matters to a lone server. */
export const SOA_TIMERS = { refresh: 3600, retry: 900, expire: 1_209_600, negativeTtl: 60 } as const;

export interface ZoneOptions {
  /** The address the DNS server listens on; the zone's `ns` host resolves to it. */
  nameServerAddress: string;
}

/** Type codes (RFC 1035, RFC 3596) give records of one name a fixed order. */
const TYPE_CODES: Record<RecordType, number> = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 };

/** Addresses sort by their bytes, so 10.0.0.9 comes before 10.0.0.10; other values by text. */
function valueKey(record: DnsRecord): string {
  if ((record.type === "A" || record.type === "AAAA") && ipaddr.isValid(record.value)) {
    return ipaddr
      .parse(record.value)
      .toByteArray()
      .map((byte) => byte.toString(16).padStart(2, "0"))
      .join("");
  }
  return record.value;
}

function compareRecords(a: DnsRecord, b: DnsRecord): number {
  return (
    compareOwnerNames(a.name, b.name) || TYPE_CODES[a.type] - TYPE_CODES[b.type] || compareText(valueKey(a), valueKey(b)) || a.ttl - b.ttl
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The record for the `ns` host named by the NS record, unless the set gives `ns` addresses of its
 * own. Without an address for it, named-checkzone refuses the zone.
 */
function nameServerRecords(records: DnsRecord[], address: string): DnsRecord[] {
  if (records.some((r) => r.name === NAME_SERVER_HOST && (r.type === "A" || r.type === "AAAA"))) return [];
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    return [{ name: NAME_SERVER_HOST, type: "A", value: ipaddr.IPv4.parse(address).toString(), ttl: TTL_DEFAULT }];
  }
  if (address.includes(":") && !address.includes("%") && ipaddr.IPv6.isValid(address)) {
    return [{ name: NAME_SERVER_HOST, type: "AAAA", value: ipaddr.IPv6.parse(address).toString(), ttl: TTL_DEFAULT }];
  }
  throw new Error(`Name server address ${address} is not an IPv4 or IPv6 address`);
}

/**
 * RFC 2181 §5.2: all records of one name and type share a TTL. Records stored with different
 * TTLs are served with the smallest, which never keeps an answer cached longer than asked.
 */
function rrsetTtls(records: DnsRecord[]): Map<string, number> {
  const ttls = new Map<string, number>();
  for (const r of records) {
    const key = `${r.name} ${r.type}`;
    ttls.set(key, Math.min(ttls.get(key) ?? Infinity, r.ttl));
  }
  return ttls;
}

function renderData(record: DnsRecord): string {
  return record.type === "TXT" ? renderTxtData(record.value) : record.value;
}

/** FNV-1a, 32 bits: cheap, synchronous and stable across runtimes. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The SOA serial is a hash of everything else in the file. CoreDNS's file plugin reloads a zone
 * when the serial differs from the loaded one, so any content change is picked up; 0 is avoided
 * because some tools read it as "unset".
 */
export function serialFor(body: string): number {
  return fnv1a32(body) || 1;
}

export function renderZone(domain: string, records: DnsRecord[], options: ZoneOptions): string {
  const origin = domain.toLowerCase().replace(/\.$/, "");
  if (!isDomainName(origin)) throw new Error(`Zone domain ${domain} is not a valid domain name`);
  const all = [...records, ...nameServerRecords(records, options.nameServerAddress)].sort(compareRecords);
  const ttls = rrsetTtls(all);
  const lines = all.map((r) => [r.name, ttls.get(`${r.name} ${r.type}`), "IN", r.type, renderData(r)].join("\t"));
  const unique = lines.filter((line, index) => line !== lines[index - 1]);
  const nameServer = `${NAME_SERVER_HOST}.${origin}.`;
  const head = [`$ORIGIN ${origin}.`, `$TTL ${TTL_DEFAULT}`];
  const apexNs = [APEX, TTL_DEFAULT, "IN", "NS", nameServer].join("\t");
  const body = [...head, apexNs, ...unique].join("\n");
  const { refresh, retry, expire, negativeTtl } = SOA_TIMERS;
  const soaData = `${nameServer} ${SOA_CONTACT_HOST}.${origin}. ${serialFor(body)} ${refresh} ${retry} ${expire} ${negativeTtl}`;
  const soa = [APEX, TTL_DEFAULT, "IN", "SOA", soaData].join("\t");
  // The SOA must be the first record: CoreDNS and RFC 1035 §5.2 both expect it there.
  return `${[...head, soa, apexNs, ...unique].join("\n")}\n`;
}

/**
 * A strong ETag over the exact bytes served, so a client can poll with If-None-Match and a
 * changed zone (or Corefile) always gets a new tag.
 */
export async function zoneEtag(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `"${hex}"`;
}
