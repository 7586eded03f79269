import ipaddr from "ipaddr.js";
import type { Cidr, Family } from "./cidr";

/**
 * Address management inside one network CIDR.
 *
 * Addresses are handled as bigints so that "fd00:0::5" and "fd00::5" are the same key and so that
 * allocation walks numbers instead of materialising the range (a /64 has 2^64 of them).
 */

export interface ParsedAddress {
  family: Family;
  value: bigint;
}

export type AddressCheck = { ok: true; address: string } | { ok: false; reason: string };

const bitsOf = (family: Family) => (family === "ipv4" ? 32 : 128);

/** Strict parse of a bare address (no prefix, no zone), the same grammar parseCidr accepts. */
export function parseAddress(text: string): ParsedAddress | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) address = ipaddr.IPv4.parse(text);
  else if (text.includes(":") && !text.includes("%") && ipaddr.IPv6.isValid(text)) address = ipaddr.IPv6.parse(text);
  else return null;
  return { family: address.kind() === "ipv4" ? "ipv4" : "ipv6", value: bytesToBigInt(address.toByteArray()) };
}

/** Canonical text: dotted quad for IPv4, ipaddr.js's RFC 5952 compact form for IPv6. */
export function formatAddress(family: Family, value: bigint): string {
  const byteCount = bitsOf(family) / 8;
  const bytes = new Array<number>(byteCount);
  let rest = value;
  for (let i = byteCount - 1; i >= 0; i--) {
    bytes[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/** The canonical text of an address, or null when it is not one. */
export function canonicalAddress(text: string): string | null {
  const parsed = parseAddress(text);
  return parsed ? formatAddress(parsed.family, parsed.value) : null;
}

export function bytesToBigInt(bytes: readonly number[]): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** First and last address of the CIDR, whatever their usability. */
export function cidrBounds(cidr: Cidr): { first: bigint; last: bigint } {
  const first = bytesToBigInt(cidr.bytes);
  const hostBits = BigInt(bitsOf(cidr.family) - cidr.prefix);
  return { first, last: first + (1n << hostBits) - 1n };
}

/**
 * The range nodes may hold. IPv4 loses network and broadcast except on /31 (RFC 3021 point-to-point)
 * and /32; IPv6 has no broadcast but the all-zero host is the subnet-router anycast (RFC 4291), kept
 * free except on /127 (RFC 6164) and /128.
 */
export function usableRange(cidr: Cidr): { first: bigint; last: bigint } {
  const { first, last } = cidrBounds(cidr);
  const hostBits = bitsOf(cidr.family) - cidr.prefix;
  if (hostBits <= 1) return { first, last };
  return cidr.family === "ipv4" ? { first: first + 1n, last: last - 1n } : { first: first + 1n, last };
}

/**
 * Used addresses as keys. Entries of another family or unparseable ones cannot collide with an
 * allocation, so they are skipped; a stray "/prefix" suffix is tolerated because this is stored data
 * and ignoring it would hand the same address out twice.
 */
function usedKeys(family: Family, used: Iterable<string>): Set<bigint> {
  const keys = new Set<bigint>();
  for (const entry of used) {
    const slash = entry.indexOf("/");
    const parsed = parseAddress(slash < 0 ? entry : entry.slice(0, slash));
    if (parsed && parsed.family === family) keys.add(parsed.value);
  }
  return keys;
}

/**
 * The lowest free usable address of the CIDR, or null when every usable address is taken.
 * Cost is O(|used|): the walk stops at the first gap, and there are at most |used| taken slots before it.
 */
export function allocateAddress(cidr: Cidr, used: Iterable<string>): string | null {
  const taken = usedKeys(cidr.family, used);
  const { first, last } = usableRange(cidr);
  for (let candidate = first; candidate <= last; candidate++) {
    if (!taken.has(candidate)) return formatAddress(cidr.family, candidate);
  }
  return null;
}

/** Addresses in use, asked one at a time (the writer's AddressPool) instead of listed. */
export interface TakenAddresses {
  isTaken(value: bigint): boolean;
}

/** Validates an address a client asked for and returns it in canonical form. */
export function checkRequestedAddress(cidr: Cidr, address: string, used: Iterable<string> | TakenAddresses): AddressCheck {
  const parsed = parseAddress(address);
  const familyName = cidr.family === "ipv4" ? "IPv4" : "IPv6";
  if (!parsed || parsed.family !== cidr.family) return { ok: false, reason: `${address} is not an ${familyName} address` };
  const canonical = formatAddress(parsed.family, parsed.value);
  const bounds = cidrBounds(cidr);
  if (parsed.value < bounds.first || parsed.value > bounds.last) {
    return { ok: false, reason: `${canonical} is outside ${cidr.text}` };
  }
  const usable = usableRange(cidr);
  if (parsed.value < usable.first) {
    const role = cidr.family === "ipv4" ? "network address" : "subnet-router anycast address";
    return { ok: false, reason: `${canonical} is the ${role} of ${cidr.text}` };
  }
  if (parsed.value > usable.last) return { ok: false, reason: `${canonical} is the broadcast address of ${cidr.text}` };
  const taken = "isTaken" in used ? used.isTaken(parsed.value) : usedKeys(cidr.family, used).has(parsed.value);
  if (taken) return { ok: false, reason: `${canonical} is already in use` };
  return { ok: true, address: canonical };
}
