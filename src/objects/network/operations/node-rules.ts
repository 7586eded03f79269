// The rules a node write checks before it commits: its name in the zone, a unique name and key, the gateway
// role's fields, its address, and pool membership. Pure checks against the writer's held network (and one
// inventory read), so the writes in nodes.ts stay about what they write.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { gateways } from "../../../db/schema";
import { conflict, domainError, fieldError } from "../../../lib/errors";
import { nodeNameProblem } from "../../../core/dns";
import type { HeldNetwork } from "../memory/held-network";
import { mustParseCidr } from "../../../core/net/cidr";
import { checkRequestedAddress, parseAddress } from "../../../core/net/ipam";
import { publicKeyOrNull } from "../../../core/net/wireguard-key";
import type { NodeRow } from "../../../db/rows";

/** Checked in the writer, against the domain the network has now: `<name>.<dnsDomain>` must be a name the zone can hold. */
export function assertNameFitsZone(held: HeldNetwork, name: string) {
  const problem = nodeNameProblem(name, held.network.dnsDomain);
  if (problem) throw fieldError("name", problem);
}

export function assertUniqueIdentity(held: HeldNetwork, candidate: { name: string; publicKey: string }, selfId?: string) {
  // nodeWithKey finds no keyless node: any number of gateway nodes may await their agents.
  const named = held.nodeNamed(candidate.name);
  if (named && named.id !== selfId) throw conflict(`Node ${named.id} already uses the name "${candidate.name}" in this network`);
  const keyed = held.nodeWithKey(candidate.publicKey);
  if (keyed && keyed.id !== selfId) throw conflict(`Node ${keyed.id} already uses this public key in this network`);
}

/** The route checks these on the body; a node that loses the gateway role is checked here, as is a PATCH. */
export function assertGatewayOnly(node: { isGateway: boolean; servesDns: boolean; publicKey: string; relay?: boolean }) {
  if (node.isGateway) return;
  if (node.servesDns) throw fieldError("servesDns", "Only a gateway node serves DNS");
  if (node.relay) throw fieldError("relay", "Only a gateway node relays");
  if (publicKeyOrNull(node.publicKey) === null) throw fieldError("publicKey", "Required: only a gateway node may await its agent's key");
}

export async function assertGatewayRole(db: Db, isGateway: boolean, gatewayId: string | null) {
  if (!isGateway) return;
  if (!gatewayId) throw domainError("A node with the gateway role needs gatewayId (its inventory gateway)");
  const gateway = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.id, gatewayId)).get();
  if (!gateway) throw domainError(`gatewayId ${gatewayId} is not in the gateway inventory`);
}

/** A requested address must be free and usable; otherwise the lowest free one (409 when the range is full). */
export function pickAddress(held: HeldNetwork, requested: string | undefined, self?: NodeRow): string {
  const cidr = mustParseCidr(held.network.cidr);
  if (requested !== undefined) {
    // The node's own address is free for itself.
    const own = self ? parseAddress(self.address)?.value : undefined;
    const checked = checkRequestedAddress(cidr, requested, { isTaken: (value) => value !== own && held.addresses.isTaken(value) });
    if (checked.ok) return checked.address;
    if (/in use|used/i.test(checked.reason)) throw conflict(`${requested}: ${checked.reason}`);
    throw domainError(`address ${requested}: ${checked.reason}`);
  }
  const address = held.addresses.lowestFree();
  if (!address) throw conflict(`The network's address range ${held.network.cidr} is exhausted`);
  return address;
}

export const policiesUsing = (held: HeldNetwork, nodeId: string) =>
  [...held.policies.values()].filter((policy) => policy.gatewayPath.includes(nodeId)).map((policy) => policy.id);

/** A pool member must stay a gateway node: it leaves its pool first (PATCH /gateway-pools/{id}). */
export function assertNotPoolMember(held: HeldNetwork, nodeId: string, leaving: boolean) {
  const pool = leaving ? held.poolOf(nodeId) : undefined;
  if (pool) throw conflict(`The node is a member of gateway pool ${pool.id}; remove it from the pool first`);
}
