import { APEX, MAX_NAME_LENGTH, NAME_SERVER_HOST, absoluteName } from "./names";

/**
 * Names the zone itself uses, and the limits every name under a network's domain must keep. Nodes
 * and devices become `<name>.<dnsDomain>`; records are `<name>.<dnsDomain>`; the zone adds
 * `ns.<dnsDomain>` (its NS host) and `hostmaster.<dnsDomain>` (its SOA contact mailbox). A name taken
 * by a node or a record would replace the name server's address or the contact, so no one may take
 * them; a name that outgrows 253 characters makes the whole zone fail to load.
 */

/** The SOA RNAME's host part: `hostmaster.<domain>.` is the zone's contact mailbox (RFC 2142). */
export const SOA_CONTACT_HOST = "hostmaster";

/** Owner names the renderer writes itself; nothing stored may use them. */
export const ZONE_OWN_NAMES = [NAME_SERVER_HOST, SOA_CONTACT_HOST] as const;

/** The longest domain whose own names (`hostmaster.<domain>`) still fit in 253 characters: 242. */
export const MAX_DOMAIN_LENGTH = MAX_NAME_LENGTH - SOA_CONTACT_HOST.length - 1;

/** Why a relative owner name is the zone's own (`ns`, `hostmaster`), or null. Checked for records and nodes. */
export function zoneOwnNameProblem(name: string): string | null {
  if (name === NAME_SERVER_HOST)
    return `"${NAME_SERVER_HOST}" is reserved: the zone's name server host (NS ${NAME_SERVER_HOST}.<dnsDomain>)`;
  if (name === SOA_CONTACT_HOST)
    return `"${SOA_CONTACT_HOST}" is reserved: the zone's contact mailbox (SOA ${SOA_CONTACT_HOST}.<dnsDomain>)`;
  return null;
}

/**
 * Why a node or device name cannot be `<name>.<domain>`: a name the zone reserves (its own hosts,
 * `@` the apex, a `*` wildcard label), or a full name over 253 characters. Null when it fits.
 */
export function nodeNameProblem(name: string, domain: string): string | null {
  if (name === APEX) return `"${APEX}" is reserved: it is the zone apex, not a host name`;
  if (name.split(".").includes("*")) return `"*" is reserved: a wildcard label matches other names, it cannot name a node`;
  return zoneOwnNameProblem(name) ?? fullNameProblem(name, domain);
}

/**
 * Why `relative` (an owner name, or a CNAME target; absolute ones end with a dot) is over 253
 * characters once written under `domain`, or null. Labels are checked at input and do not depend on it.
 */
export function fullNameProblem(relative: string, domain: string): string | null {
  const full = absoluteName(relative, domain);
  if (full.length <= MAX_NAME_LENGTH) return null;
  return `The full name ${full} would be ${full.length} characters; DNS names are at most ${MAX_NAME_LENGTH}`;
}

/** Why `domain` leaves no room for the zone's own names, or null. */
export function domainLengthProblem(domain: string): string | null {
  if (domain.length <= MAX_DOMAIN_LENGTH) return null;
  return `A DNS domain is at most ${MAX_DOMAIN_LENGTH} characters, so ${SOA_CONTACT_HOST}.<dnsDomain> (the zone's contact) stays within ${MAX_NAME_LENGTH}`;
}
