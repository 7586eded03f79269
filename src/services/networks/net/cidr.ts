import ipaddr from "ipaddr.js";

export type Family = "ipv4" | "ipv6";

export interface Cidr {
  family: Family;
  /** The network address as bytes (4 or 16). */
  bytes: number[];
  prefix: number;
  /** Canonical text: "10.0.0.0/24", "fd00::/64". */
  text: string;
}

export type CidrParse = { ok: true; cidr: Cidr } | { ok: false; reason: string };

const bitsOf = (family: Family) => (family === "ipv4" ? 32 : 128);

/**
 * Strict CIDR parsing: the address must be a canonical IPv4 dotted quad or an IPv6 address,
 * the prefix explicit, and no host bits set (10.0.0.1/24 is refused, not silently truncated).
 */
export function parseCidr(input: string): CidrParse {
  const slash = input.indexOf("/");
  if (slash < 0 || !/^\d{1,3}$/.test(input.slice(slash + 1))) return { ok: false, reason: "Expected address/prefix, e.g. 10.0.0.0/24" };
  const addressText = input.slice(0, slash);
  const prefix = Number(input.slice(slash + 1));
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(addressText)) address = ipaddr.IPv4.parse(addressText);
  else if (addressText.includes(":") && ipaddr.IPv6.isValid(addressText) && !addressText.includes("%")) address = ipaddr.IPv6.parse(addressText);
  else return { ok: false, reason: "Not an IPv4 or IPv6 address" };
  const family: Family = address.kind() === "ipv4" ? "ipv4" : "ipv6";
  if (prefix > bitsOf(family)) return { ok: false, reason: `Prefix must be at most ${bitsOf(family)}` };
  const bytes = address.toByteArray();
  if (!hasZeroHostBits(bytes, prefix)) return { ok: false, reason: "Host bits are set; use the network address" };
  return { ok: true, cidr: { family, bytes, prefix, text: `${address.toString()}/${prefix}` } };
}

function hasZeroHostBits(bytes: number[], prefix: number): boolean {
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    if ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) return false;
  }
  return true;
}

/** Two prefixes overlap exactly when the shorter one contains the other's network address. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  if (a.family !== b.family) return false;
  const shorter = Math.min(a.prefix, b.prefix);
  for (let bit = 0; bit < shorter; bit++) {
    const mask = 1 << (7 - (bit & 7));
    if ((a.bytes[bit >> 3]! & mask) !== (b.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

export function mustParseCidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(`Stored CIDR ${text} is invalid: ${parsed.reason}`);
  return parsed.cidr;
}
