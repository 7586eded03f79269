import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, notExists, notInArray, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { networks, nodePresence, nodes } from "../db/schema";
import type { EventInput } from "../services/notifications/event-types";
import { type Cutoffs, MAX_TRANSITIONS_PER_RUN } from "./cutoffs";

/**
 * Online nodes without a device that reported a routing revision older than their network's: the drift clock
 * runs for these. Device nodes' clocks are their network object's (objects/network/clocks/presence-clock.ts).
 */
const behindNodes = (db: Db, at: Cutoffs) =>
  db
    .select({ id: nodes.id })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(
      and(
        isNull(nodes.deviceId),
        isNotNull(nodes.appliedRoutingRevision),
        lt(nodes.appliedRoutingRevision, networks.routingRevision),
        gte(nodes.lastSeenAt, at.onlineSince),
      ),
    );

/**
 * The clock starts the first run a node is seen behind and stops once it is in sync or offline; it
 * does not restart when the desired revision moves on, so a node stuck while the network keeps
 * changing still drifts. Node presence rows exist for every online node (detectNodePresence ran first).
 */
export async function tickDriftClocks(db: Db, at: Cutoffs) {
  await db.batch([
    db
      .update(nodePresence)
      .set({ behindSince: at.now, updatedAt: at.now })
      .where(and(isNull(nodePresence.behindSince), eq(nodePresence.state, "online"), inArray(nodePresence.nodeId, behindNodes(db, at)))),
    db
      .update(nodePresence)
      .set({ behindSince: null, updatedAt: at.now })
      .where(
        and(
          isNotNull(nodePresence.behindSince),
          notInArray(nodePresence.nodeId, behindNodes(db, at)),
          notExists(
            db
              .select({ id: nodes.id })
              .from(nodes)
              .where(and(eq(nodes.id, nodePresence.nodeId), isNotNull(nodes.deviceId))),
          ),
        ),
      ),
  ]);
}

/** config.drift once per (node, desired revision): the dedupe key and driftNotifiedRevision both say so. */
export async function detectConfigDrift(db: Db, at: Cutoffs) {
  const rows = await db
    .select({
      node: { id: nodes.id, name: nodes.name, address: nodes.address },
      networkId: nodes.networkId,
      groupId: networks.groupId,
      appliedRevision: nodes.appliedRoutingRevision,
      desiredRevision: networks.routingRevision,
      behindSince: nodePresence.behindSince,
      lastSeenAt: nodes.lastSeenAt,
    })
    .from(nodePresence)
    .innerJoin(nodes, eq(nodes.id, nodePresence.nodeId))
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(
      and(
        isNull(nodes.deviceId),
        lte(nodePresence.behindSince, at.driftSince),
        lt(nodes.appliedRoutingRevision, networks.routingRevision),
        gte(nodes.lastSeenAt, at.onlineSince),
        or(isNull(nodePresence.driftNotifiedRevision), lt(nodePresence.driftNotifiedRevision, networks.routingRevision)),
      ),
    )
    .limit(MAX_TRANSITIONS_PER_RUN)
    .all();
  const events: EventInput[] = rows.map((row) => ({
    type: "config.drift",
    networkId: row.networkId,
    groupId: row.groupId,
    subjectId: row.node.id,
    data: {
      node: row.node,
      desiredRevision: row.desiredRevision,
      appliedRevision: row.appliedRevision,
      behindSince: row.behindSince,
      lastSeenAt: row.lastSeenAt,
    },
    dedupeKey: `config.drift:${row.node.id}:${row.desiredRevision}`,
  }));
  const writes = rows.map((row) =>
    db
      .update(nodePresence)
      .set({ driftNotifiedRevision: row.desiredRevision, updatedAt: at.now })
      .where(eq(nodePresence.nodeId, row.node.id)),
  );
  return { events, writes };
}
