// Just enough IP prefix arithmetic to compare what the config wants with what `ip -j` reports:
// canonical spelling (network address, RFC 5952 IPv6) and "does this prefix contain that one".
// Written here because the CLI has no dependencies beyond Node itself.

/** @typedef {{ family: 4 | 6, value: bigint, length: number }} Prefix */

function parseV4(text) {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n);
}

function parseV6(text) {
  let tail = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseV4(dotted[1]);
    if (v4 === null) return null;
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)].map((n) => n.toString(16));
    text = `${text.slice(0, -dotted[1].length)}0:0`; // placeholders, replaced below
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const split = (half) => (half ? half.split(":") : []);
  const head = split(halves[0]);
  const rest = halves.length === 2 ? split(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/**
 * `10.0.0.5/24`, `fd00::1`, `default` (with a family) → Prefix, host bits cleared.
 * @param {string} text
 * @param {4 | 6} [defaultFamily]
 * @returns {Prefix}
 */
export function parsePrefix(text, defaultFamily = 4) {
  if (text === "default") return { family: defaultFamily, value: 0n, length: 0 };
  const [address, lengthText, extra] = text.trim().split("/");
  if (extra !== undefined || !address) throw new Error(`not an IP prefix: ${text}`);
  const v4 = parseV4(address);
  const family = /** @type {4 | 6} */ (v4 !== null ? 4 : 6);
  const value = v4 ?? parseV6(address);
  const bits = family === 4 ? 32 : 128;
  const length = lengthText === undefined ? bits : Number(lengthText);
  if (value === null || !/^\d+$/.test(lengthText ?? "0") || length > bits) throw new Error(`not an IP prefix: ${text}`);
  const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - length)) - 1n);
  return { family, value: value & mask, length };
}

/** @param {Prefix} prefix */
export function formatPrefix({ family, value, length }) {
  if (family === 4) {
    return `${[24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join(".")}/${length}`;
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups (the first one on a tie) becomes "::".
  let best = { start: -1, size: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.size) best = { start: i, size: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  const text = best.start < 0 ? hex.join(":") : `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.size).join(":")}`;
  return `${text}/${length}`;
}

/**
 * The spelling `ip -j route` uses for a route's destination, always with its length.
 * @type {(text: string, defaultFamily?: 4 | 6) => string}
 */
export const canonicalPrefix = (text, defaultFamily = 4) => formatPrefix(parsePrefix(text, defaultFamily));

/** True when `outer` contains every address of `inner`. */
export function covers(outer, inner) {
  const a = typeof outer === "string" ? parsePrefix(outer) : outer;
  const b = typeof inner === "string" ? parsePrefix(inner) : inner;
  if (a.family !== b.family || b.length < a.length) return false;
  const bits = BigInt(a.family === 4 ? 32 : 128);
  return b.value >> (bits - BigInt(a.length)) === a.value >> (bits - BigInt(a.length));
}

/**
 * The prefixes of one family without those another of them already covers (nft refuses overlapping set
 * elements), sorted.
 * @param {string[]} prefixes
 * @param {4 | 6} family
 */
export function outermost(prefixes, family) {
  const same = [...new Set(prefixes)].filter((p) => parsePrefix(p).family === family);
  return same.filter((p) => !same.some((q) => q !== p && covers(q, p))).sort();
}
