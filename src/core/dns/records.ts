import ipaddr from "ipaddr.js";
import { absoluteName, isHostName, normaliseOwnerName, normaliseTarget } from "./names";
import { zoneOwnNameProblem } from "./reserved";
import { validateTxt } from "./txt";

/**
 * Validation of one DNS record of a network. Validators return the normalised record or the one
 * field at fault, so the API layer can answer 422 with `fields[]` without knowing DNS rules.
 */

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "TXT"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const TTL_MIN = 30;
export const TTL_MAX = 86_400;
export const TTL_DEFAULT = 300;

/** A record as stored: name relative to the network's domain, value in canonical form. */
export interface DnsRecord {
  /** Present on stored records; only conflict checks look at it, renderers never do. */
  id?: string;
  name: string;
  type: RecordType;
  value: string;
  ttl: number;
}

/** What a client sends; anything may be wrong with it. */
export interface RecordInput {
  name: unknown;
  type: unknown;
  value: unknown;
  ttl?: unknown;
}

export type RecordField = "name" | "type" | "value" | "ttl";
export type Invalid = { ok: false; field: RecordField; message: string };
export type Checked<T> = { ok: true; value: T } | Invalid;

const invalid = (field: RecordField, message: string): Invalid => ({ ok: false, field, message });

export function validateType(input: unknown): Checked<RecordType> {
  const type = typeof input === "string" ? input.trim().toUpperCase() : input;
  if (RECORD_TYPES.includes(type as RecordType)) return { ok: true, value: type as RecordType };
  return invalid("type", `Type must be one of ${RECORD_TYPES.join(", ")}`);
}

/** A missing ttl means the default; anything else must be a whole number of seconds in range. */
export function validateTtl(input: unknown): Checked<number> {
  if (input === undefined || input === null) return { ok: true, value: TTL_DEFAULT };
  if (typeof input !== "number" || !Number.isInteger(input)) return invalid("ttl", "TTL must be a whole number of seconds");
  if (input < TTL_MIN || input > TTL_MAX) return invalid("ttl", `TTL must be between ${TTL_MIN} and ${TTL_MAX} seconds`);
  return { ok: true, value: input };
}

/** Only the dotted quad: ipaddr.js would also take "10.1" or "0x0a.0.0.1", which hide typos. */
export function normaliseIpv4(input: unknown): Checked<string> {
  const text = typeof input === "string" ? input.trim() : "";
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return invalid("value", "An A record needs an IPv4 address such as 10.0.0.5");
  return { ok: true, value: ipaddr.IPv4.parse(text).toString() };
}

/** Stored compact and lower-case (RFC 5952) so "FD00:0:0::1" and "fd00::1" are the same value. */
export function normaliseIpv6(input: unknown): Checked<string> {
  const text = typeof input === "string" ? input.trim() : "";
  if (!text.includes(":") || text.includes("%") || !ipaddr.IPv6.isValid(text)) {
    return invalid("value", "An AAAA record needs an IPv6 address such as fd00::5");
  }
  return { ok: true, value: ipaddr.IPv6.parse(text).toString() };
}

function validateValue(type: RecordType, input: unknown, domain: string): Checked<string> {
  switch (type) {
    case "A":
      return normaliseIpv4(input);
    case "AAAA":
      return normaliseIpv6(input);
    case "CNAME": {
      const target = normaliseTarget(input, domain);
      return target.ok ? target : invalid("value", target.message);
    }
    case "TXT": {
      const text = validateTxt(input);
      return text.ok ? text : invalid("value", text.message);
    }
  }
}

/**
 * Checks and normalises a record for the network whose domain is `domain` (already validated,
 * lower-case, no trailing dot). The domain is needed because the 253-character limit applies
 * to the full name, and because a relative CNAME target is read relative to it.
 */
export function validateRecord(input: RecordInput, domain: string): Checked<DnsRecord> {
  const type = validateType(input.type);
  if (!type.ok) return type;
  const name = normaliseOwnerName(input.name, domain);
  if (!name.ok) return invalid("name", name.message);
  const reserved = zoneOwnNameProblem(name.value);
  if (reserved) return invalid("name", reserved);
  if ((type.value === "A" || type.value === "AAAA") && !isHostName(name.value)) {
    return invalid("name", "Address records need a host name of letters, digits and hyphens; underscores are for TXT and CNAME names");
  }
  const value = validateValue(type.value, input.value, domain);
  if (!value.ok) return value;
  if (type.value === "CNAME" && absoluteName(value.value, domain) === absoluteName(name.value, domain)) {
    return invalid("value", "A CNAME cannot point at its own name");
  }
  const ttl = validateTtl(input.ttl);
  if (!ttl.ok) return ttl;
  return { ok: true, value: { name: name.value, type: type.value, value: value.value, ttl: ttl.value } };
}
