import { parseCidr } from "../net/cidr";
import { bytesToBigInt } from "../net/ipam";

/**
 * Sort keys that make every list in a node config byte-stable whatever order the database returned
 * rows in: addresses compare as numbers (10.0.0.9 before 10.0.0.10), prefixes by network address and
 * then by length, ties by id.
 */

export interface PrefixKey {
  value: bigint;
  prefix: number;
}

export function compareBigInt(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function comparePrefixes(a: PrefixKey, b: PrefixKey): number {
  return compareBigInt(a.value, b.value) || a.prefix - b.prefix;
}

export function compareIds(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A CIDR's canonical text with its sort key, or null when the text is not a CIDR. */
export function prefixKeyOf(text: string): (PrefixKey & { text: string }) | null {
  const parsed = parseCidr(text);
  if (!parsed.ok) return null;
  return { text: parsed.cidr.text, value: bytesToBigInt(parsed.cidr.bytes), prefix: parsed.cidr.prefix };
}
