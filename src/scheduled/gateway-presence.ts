import { and, eq, inArray, isNotNull, max } from "drizzle-orm";
import type { Db } from "../db/client";
import { gatewayPresence, gateways, networks, nodes } from "../db/schema";
import type { EventInput } from "../services/notifications/event-types";
import type { Cutoffs } from "./cutoffs";

type Verdict = { state: "up" | "down"; reason: "disabled" | "reported_down" | "nodes_offline" | "node_online" } | null;

/**
 * Down: the inventory says disabled, its gateway-manager reports health "down", or it has gateway
 * nodes that reported and none is online now. Up: none of that and at least one gateway node online.
 * No verdict while no gateway node ever reported (a fresh gateway is not "down"). Gateways without
 * gateway nodes serve nobody: not watched.
 */
function verdict(status: string, health: string, lastSeenAt: string | null, at: Cutoffs): Verdict {
  if (status === "disabled") return { state: "down", reason: "disabled" };
  if (health === "down") return { state: "down", reason: "reported_down" };
  if (lastSeenAt === null) return null;
  return lastSeenAt >= at.onlineSince ? { state: "up", reason: "node_online" } : { state: "down", reason: "nodes_offline" };
}

/**
 * gateway.down / gateway.up, one event per network the gateway serves (through its gateway nodes), so
 * each is scoped like every other event and names only that network's nodes.
 */
export async function detectGatewayPresence(db: Db, at: Cutoffs) {
  const rows = await db
    .select({
      id: gateways.id,
      name: gateways.name,
      status: gateways.status,
      health: gateways.health,
      lastSeenAt: max(nodes.lastSeenAt),
      previous: gatewayPresence.state,
      previousSince: gatewayPresence.changedAt,
    })
    .from(gateways)
    .innerJoin(nodes, and(eq(nodes.gatewayId, gateways.id), eq(nodes.isGateway, true)))
    .leftJoin(gatewayPresence, eq(gatewayPresence.gatewayId, gateways.id))
    .groupBy(gateways.id)
    .all();
  const changed = rows.flatMap((row) => {
    const next = verdict(row.status, row.health, row.lastSeenAt, at);
    return next && next.state !== row.previous ? [{ ...row, next }] : [];
  });
  if (changed.length === 0) return { events: [], writes: [] };
  // D1 binds at most 100 parameters a statement: look the changed gateways up 90 at a time.
  const served = [];
  for (let start = 0; start < changed.length; start += 90) {
    const ids = changed.slice(start, start + 90).map((row) => row.id);
    served.push(
      ...(await db
        .select({ gatewayId: nodes.gatewayId, nodeId: nodes.id, networkId: nodes.networkId, groupId: networks.groupId })
        .from(nodes)
        .innerJoin(networks, eq(networks.id, nodes.networkId))
        .where(and(isNotNull(nodes.gatewayId), eq(nodes.isGateway, true), inArray(nodes.gatewayId, ids)))
        .all()),
    );
  }
  const events: EventInput[] = [];
  for (const row of changed) {
    // A first verdict of "up" is recorded silently; gateway.up only ends an announced outage.
    if (row.next.state === "up" && row.previous !== "down") continue;
    const byNetwork = new Map<string, typeof served>();
    for (const node of served) {
      if (node.gatewayId === row.id) byNetwork.set(node.networkId, [...(byNetwork.get(node.networkId) ?? []), node]);
    }
    for (const [networkId, nodesHere] of byNetwork) {
      const type = row.next.state === "down" ? "gateway.down" : "gateway.up";
      events.push({
        type,
        networkId,
        groupId: nodesHere[0]!.groupId,
        subjectId: row.id,
        data: {
          gateway: { id: row.id, name: row.name, status: row.status, health: row.health },
          reason: row.next.reason,
          lastSeenAt: row.lastSeenAt,
          nodeIds: nodesHere.map((node) => node.nodeId),
        },
        dedupeKey: `${type}:${row.id}:${networkId}:${row.previousSince ?? "first"}`,
      });
    }
  }
  const writes = changed.map((row) => {
    const values = { state: row.next.state, changedAt: at.now, updatedAt: at.now };
    return db
      .insert(gatewayPresence)
      .values({ gatewayId: row.id, ...values })
      .onConflictDoUpdate({ target: gatewayPresence.gatewayId, set: values });
  });
  return { events, writes };
}
