/**
 * DNS names as the control plane stores them: owner names relative to the network's domain
 * ("@" for the apex) and CNAME targets (relative or absolute). Everything is lower-case ASCII, so
 * comparing JavaScript strings compares the same octets DNS compares.
 */

export const APEX = "@";

/** The host the zone's NS record names; the renderer gives it the DNS server's address. */
export const NAME_SERVER_HOST = "ns";
/** RFC 1035 §2.3.4: 253 characters of presentation text (255 octets on the wire). */
export const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/** Letters, digits, hyphens inside (RFC 1123 host names). */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Host labels plus underscores, for service-style names such as `_acme-challenge` (RFC 8552). */
const SERVICE_LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

/**
 * A network's domain as the networks API stores it: lower-case host labels, no trailing dot.
 * Renderers check it again because it is written into configuration files verbatim.
 */
export function isDomainName(domain: string): boolean {
  return (
    domain.length > 0 &&
    domain.length <= MAX_NAME_LENGTH &&
    domain.split(".").every((label) => label.length <= MAX_LABEL_LENGTH && HOST_LABEL.test(label))
  );
}

export type NameCheck = { ok: true; value: string } | { ok: false; message: string };

/** The full name without the trailing dot, which is what the 253-character limit counts. */
export function absoluteName(relative: string, domain: string): string {
  if (relative === APEX) return domain;
  if (relative.endsWith(".")) return relative.slice(0, -1);
  return `${relative}.${domain}`;
}

function checkLabels(labels: string[], allowWildcard: boolean): string | null {
  for (const [index, label] of labels.entries()) {
    if (label === "") return "Empty label: two dots in a row, or a leading dot";
    if (label.length > MAX_LABEL_LENGTH) return `Label "${label.slice(0, 20)}…" is longer than 63 characters`;
    if (label === "*") {
      if (allowWildcard && index === 0) continue;
      return "A * wildcard is only allowed as the whole leftmost label";
    }
    if (!SERVICE_LABEL.test(label)) {
      return `Label "${label}" may only hold letters, digits, hyphens and underscores, and not start or end with a hyphen`;
    }
  }
  return null;
}

/**
 * An owner name relative to `domain`: "@", or labels such as "www", "*.dev", "_acme-challenge".
 * Absolute names are refused rather than guessed at: "www.corp.internal" would mean
 * www.corp.internal.corp.internal, which is rarely what was meant but is still a valid name.
 */
export function normaliseOwnerName(input: unknown, domain: string): NameCheck {
  if (typeof input !== "string") return { ok: false, message: "Name must be a string" };
  const name = input.trim().toLowerCase();
  if (name === "") return { ok: false, message: `Name is required: use "@" for ${domain} itself` };
  if (name === APEX) return { ok: true, value: APEX };
  if (name.endsWith(".")) {
    return { ok: false, message: `Use a name relative to ${domain} without a trailing dot, e.g. "www" or "@"` };
  }
  const problem = checkLabels(name.split("."), true);
  if (problem) return { ok: false, message: problem };
  if (absoluteName(name, domain).length > MAX_NAME_LENGTH) {
    return { ok: false, message: `The full name ${name}.${domain} is longer than 253 characters` };
  }
  return { ok: true, value: name };
}

/** Owners of A and AAAA records are host names, which BIND's check-names refuses underscores in. */
export function isHostName(owner: string): boolean {
  if (owner === APEX) return true;
  return owner.split(".").every((label, index) => (label === "*" && index === 0) || HOST_LABEL.test(label));
}

/**
 * A CNAME target: "@", a name relative to the zone ("www", "db.prod") or an absolute name with a
 * trailing dot ("example.com."). Underscores are accepted so a `_acme-challenge` name can alias
 * another service name; wildcards are not, since a target names exactly one node.
 */
export function normaliseTarget(input: unknown, domain: string): NameCheck {
  if (typeof input !== "string") return { ok: false, message: "Target must be a string" };
  const target = input.trim().toLowerCase();
  if (target === "") return { ok: false, message: "Target host name is required" };
  if (target === APEX) return { ok: true, value: APEX };
  const body = target.endsWith(".") ? target.slice(0, -1) : target;
  if (body === "") return { ok: false, message: "The root name cannot be a CNAME target" };
  // "10.0.0.5" would be read as the name 10.0.0.5.<domain>: almost surely an address meant for an A record.
  if (/^[\d.]+$/.test(body)) return { ok: false, message: "A CNAME target is a host name; an address belongs in an A record" };
  const problem = checkLabels(body.split("."), false);
  if (problem) return { ok: false, message: problem };
  if (absoluteName(target, domain).length > MAX_NAME_LENGTH) {
    return { ok: false, message: "The full target name is longer than 253 characters" };
  }
  return { ok: true, value: target };
}

/**
 * RFC 4034 §6.1 canonical order for names under one origin: compare label by label from the
 * right, a missing label sorting first, so the apex leads and each name's children follow it.
 */
export function compareOwnerNames(a: string, b: string): number {
  const left = a === APEX ? [] : a.split(".").reverse();
  const right = b === APEX ? [] : b.split(".").reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}
