import type { GroupRole } from "../../db/schema";
import { type Cidr, overlaps, parseCidr } from "../net/cidr";
import type { Parsed } from "./ports";

/** Who a rule names, on either side (docs/access.md). */
export type Selector =
  | { kind: "any" }
  | { kind: "tag"; tag: string }
  | { kind: "node"; nodeId: string }
  | { kind: "user"; email: string }
  | { kind: "role"; role: GroupRole }
  | { kind: "idp"; group: string }
  | { kind: "cidr"; cidr: Cidr };

/** A node as access control sees it. Devices carry the user who enrolled them and that user's role in the group. */
export interface AccessSubject {
  id: string;
  /** The overlay address without a prefix length. */
  address: string;
  tags: readonly string[];
  ownerEmail: string | null;
  ownerRole: GroupRole | null;
  /** The directory's groups the owner is in, by displayName and by externalId (`idp:` selectors name either); none when absent. */
  ownerIdpGroups?: readonly string[];
}

export const TAG_PATTERN = /^tag:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ROLES: readonly GroupRole[] = ["owner", "admin", "member", "viewer"];

export function parseSelector(text: string): Parsed<Selector> {
  if (text === "*") return { ok: true, value: { kind: "any" } };
  if (text.startsWith("tag:")) {
    return TAG_PATTERN.test(text)
      ? { ok: true, value: { kind: "tag", tag: text } }
      : { ok: false, reason: "A tag is tag:<name>, lower-case letters, digits and inner hyphens, at most 63" };
  }
  if (text.startsWith("node:")) {
    const nodeId = text.slice(5);
    return /^node_[A-Za-z0-9]+$/.test(nodeId)
      ? { ok: true, value: { kind: "node", nodeId } }
      : { ok: false, reason: "Expected node:<node id>" };
  }
  if (text.startsWith("user:")) {
    const email = text.slice(5).toLowerCase();
    return /^[^\s@]+@[^\s@]+$/.test(email) ? { ok: true, value: { kind: "user", email } } : { ok: false, reason: "Expected user:<email>" };
  }
  if (text.startsWith("role:")) {
    const role = text.slice(5) as GroupRole;
    return ROLES.includes(role) ? { ok: true, value: { kind: "role", role } } : { ok: false, reason: `Expected role:${ROLES.join("|")}` };
  }
  if (text.startsWith("idp:")) {
    const group = text.slice(4);
    return group.trim() === group && group.length > 0 && group.length <= 254
      ? { ok: true, value: { kind: "idp", group } }
      : { ok: false, reason: "Expected idp:<the IdP group's displayName or externalId>" };
  }
  const cidr = parseCidr(text);
  if (cidr.ok) return { ok: true, value: { kind: "cidr", cidr: cidr.cidr } };
  return { ok: false, reason: 'Expected "*", tag:<name>, node:<id>, user:<email>, role:<role>, idp:<group> or a CIDR' };
}

/** A single address as a host prefix, so addresses and CIDR selectors compare with one function; null: not one address. */
export function hostPrefixOrNull(text: string): Cidr | null {
  if (text.includes("/")) return null;
  const parsed = parseCidr(text.includes(":") ? `${text}/128` : `${text}/32`);
  return parsed.ok ? parsed.cidr : null;
}

/** hostPrefixOrNull for an address known to be one (a node's). */
export function hostPrefix(address: string): Cidr {
  const prefix = hostPrefixOrNull(address);
  if (!prefix) throw new Error(`Not an address: ${address}`);
  return prefix;
}

export function selectsNode(selector: Selector, node: AccessSubject, nodePrefix: Cidr): boolean {
  switch (selector.kind) {
    case "any":
      return true;
    case "tag":
      return node.tags.includes(selector.tag);
    case "node":
      return node.id === selector.nodeId;
    case "user":
      return node.ownerEmail?.toLowerCase() === selector.email;
    case "role":
      return node.ownerRole === selector.role;
    case "idp":
      return node.ownerIdpGroups?.includes(selector.group) ?? false;
    case "cidr":
      return overlaps(selector.cidr, nodePrefix) && selector.cidr.prefix <= nodePrefix.prefix;
  }
}

/**
 * The part of a routed destination a destination selector names: all of it for "*", the overlap for a
 * CIDR (prefixes nest or are apart, so the overlap is the longer one), nothing for node-only selectors.
 */
export function selectedPart(selector: Selector, destination: Cidr): Cidr | null {
  if (selector.kind === "any") return destination;
  if (selector.kind !== "cidr" || !overlaps(selector.cidr, destination)) return null;
  return selector.cidr.prefix >= destination.prefix ? selector.cidr : destination;
}
