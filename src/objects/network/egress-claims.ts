import { and, eq, ne, sql } from "drizzle-orm";
import { nodes } from "../../db/schema";
import type { Db } from "../../db/client";
import { domainError } from "../../lib/errors";
import type { HeldNetwork } from "./memory/held-network";
import { overlaps, parseCidr } from "../../core/net/cidr";

/**
 * A range routed out at a shared inventory gateway belongs to one network (DESIGN, "Tenancy on shared
 * gateways"): a via_gateway policy leaves the overlay at its last hop, and no two networks may send
 * overlapping destinations out at the same inventory gateway, or one could reach the LAN the other routes
 * there. A refusal names the gateway and never the other network (no existence leak).
 *
 * The read crosses networks, so another network's writer may commit an overlapping claim between this
 * read and this write's commit (docs/identity.md, "Gateway assignment"); gateway agents also refuse
 * overlaps on their own, failing closed.
 */

/** Where one policy's traffic leaves the overlay: the inventory gateways its last hop's node(s) run on. */
export interface EgressClaim {
  gatewayIds: string[];
  destinationCidr: string;
}

/** The nodes of a policy's last hop: the node, or every member of a pool (any of them may be active). */
export function egressNodes(held: HeldNetwork, gatewayPath: readonly string[]): string[] {
  const last = gatewayPath.at(-1);
  if (last === undefined) return [];
  return held.pools.get(last)?.members.map((member) => member.nodeId) ?? [last];
}

export function egressClaim(held: HeldNetwork, gatewayPath: readonly string[], destinationCidr: string): EgressClaim {
  const gatewayIds = new Set<string>();
  for (const id of egressNodes(held, gatewayPath)) {
    const gatewayId = held.nodes.get(id)?.gatewayId;
    if (gatewayId) gatewayIds.add(gatewayId);
  }
  return { gatewayIds: [...gatewayIds], destinationCidr };
}

export interface OtherNode {
  id: string;
  gateway_id: string;
}
interface OtherPolicy {
  destination_cidr: string;
  gateway_path: string;
  pool_members: string | null;
}

/**
 * The first gateway of `claim` at which another network already routes a destination overlapping the
 * claim's out, or null. Lists travel as one JSON parameter each (D1 binds at most 100 per statement).
 */
export async function overlappingEgress(db: Db, networkId: string, claim: EgressClaim): Promise<string | null> {
  if (!claimsEgress(claim)) return null;
  return overlapAmong(db, claim, await otherNodesQuery(db, networkId, claim));
}

/** Whether the claim can overlap anything: a parsable range leaving at some inventory gateway. */
export const claimsEgress = (claim: EgressClaim) => claim.gatewayIds.length > 0 && parseCidr(claim.destinationCidr).ok;

/** Other networks' gateway nodes on the claim's gateways: the first read of the check (a batch may carry it). */
export const otherNodesQuery = (db: Db, networkId: string, claim: EgressClaim) =>
  db
    .select({ id: nodes.id, gateway_id: sql<string>`${nodes.gatewayId}` })
    .from(nodes)
    .where(
      and(
        eq(nodes.isGateway, true),
        ne(nodes.networkId, networkId),
        sql`${nodes.gatewayId} in (select value from json_each(${JSON.stringify(claim.gatewayIds)}))`,
      ),
    );

/** The rest of the check, given `otherNodesQuery`'s rows: a second read only when another network is there. */
export async function overlapAmong(db: Db, claim: EgressClaim, others: OtherNode[]): Promise<string | null> {
  const mine = parseCidr(claim.destinationCidr);
  if (!mine.ok || others.length === 0) return null;
  const gatewayOf = new Map(others.map((node) => [node.id, node.gateway_id]));
  // The policies of those networks whose last hop is one of those nodes, or a pool (with its members).
  const policies = await db.all<OtherPolicy>(sql`select p.destination_cidr, p.gateway_path, pl.members as pool_members
    from routing_policies p
    left join gateway_pools pl on pl.network_id = p.network_id
      and pl.id = json_extract(p.gateway_path, '$[' || (json_array_length(p.gateway_path) - 1) || ']')
    where p.network_id in (select distinct n.network_id from nodes n where n.id in (select value from json_each(${JSON.stringify([...gatewayOf.keys()])})))`);
  for (const policy of policies) {
    const theirs = parseCidr(policy.destination_cidr);
    if (!theirs.ok || !overlaps(mine.cidr, theirs.cidr)) continue;
    const path = JSON.parse(policy.gateway_path) as string[];
    const members = policy.pool_members ? (JSON.parse(policy.pool_members) as { nodeId: string }[]).map((m) => m.nodeId) : path.slice(-1);
    const shared = members.map((id) => gatewayOf.get(id)).find((gatewayId) => gatewayId !== undefined);
    if (shared) return shared;
  }
  return null;
}

/** The 400 for a claim that overlaps another network's at a shared gateway (`subject`: the field the client sent). */
export const egressRefusal = (claim: EgressClaim, gatewayId: string, subject: string) =>
  domainError(
    `${subject}: ${claim.destinationCidr} would leave the overlay at gateway ${gatewayId}, where another network already routes an overlapping range out`,
  );

/** Refuses (400) a claim that overlaps another network's at a shared gateway. */
export async function assertEgressFree(db: Db, networkId: string, claim: EgressClaim, subject: string) {
  const gatewayId = await overlappingEgress(db, networkId, claim);
  if (gatewayId) throw egressRefusal(claim, gatewayId, subject);
}

/**
 * A node's or a pool's egress moved (a node onto another gateway, a pool's members changed): every policy
 * leaving the overlay there now claims its destination at the new gateways. `egressAfter` gives a policy's
 * egress nodes' gateways after the change.
 */
export async function assertMovedEgressFree(
  db: Db,
  held: HeldNetwork,
  movedIds: readonly string[],
  gatewaysAfter: (policyPath: readonly string[]) => string[],
  subject: string,
) {
  for (const policy of held.policies.values()) {
    const last = policy.gatewayPath.at(-1);
    if (last === undefined || !movedIds.includes(last)) continue;
    await assertEgressFree(
      db,
      held.network.id,
      { gatewayIds: gatewaysAfter(policy.gatewayPath), destinationCidr: policy.destinationCidr },
      subject,
    );
  }
}
