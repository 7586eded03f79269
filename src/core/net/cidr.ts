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
  else if (addressText.includes(":") && ipaddr.IPv6.isValid(addressText) && !addressText.includes("%"))
    address = ipaddr.IPv6.parse(addressText);
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

/**
 * Ranges no overlay can live in: their addresses are not unicast interface addresses, or a kernel
 * treats them specially (RFC 6890 special-purpose registries). A network inside or around one of them
 * would hand out loopback, link-local, multicast or broadcast addresses, or route everything (/0).
 */
const NOT_OVERLAY: [string, string][] = [
  ["0.0.0.0/8", '"this network" (unspecified, and 0.0.0.0/0 is the default route)'],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved (class E, with the broadcast address 255.255.255.255)"],
  ["::/96", "unspecified, loopback or IPv4-compatible (and ::/0 is the default route)"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["fe80::/10", "link-local"],
  ["ff00::/8", "multicast"],
];
const NOT_OVERLAY_RANGES = NOT_OVERLAY.map(([text, kind]) => ({ range: mustParseCidr(text), text, kind }));

/**
 * Why `cidr` cannot be a network's address range, or null. Allowed: RFC 1918 (10/8, 172.16/12,
 * 192.168/16), CGNAT 100.64.0.0/10, IPv6 ULA fc00::/7, and global unicast space the operator owns.
 */
export function overlayRangeProblem(cidr: Cidr): string | null {
  const clash = NOT_OVERLAY_RANGES.find(({ range }) => overlaps(cidr, range));
  if (!clash) return null;
  return `${cidr.text} overlaps ${clash.text}, ${clash.kind} space; a network needs unicast space such as 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10 or fd00::/8`;
}
