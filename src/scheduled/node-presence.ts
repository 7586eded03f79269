import { and, eq, gte, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { networks, nodePresence, nodes } from "../db/schema";
import type { EventInput } from "../services/notifications/event-types";
import { type Cutoffs, MAX_TRANSITIONS_PER_RUN } from "./cutoffs";

/**
 * Nodes whose verdict changed since the last run. Only nodes that reported at least once take part:
 * a node that never sent a heartbeat was never online, so it cannot go offline. Device nodes are judged by
 * their network's object, from the beats it holds (objects/network/clocks/presence-clock.ts): D1 keeps only
 * their transitions, so the cron leaves them alone.
 */
const changed = (db: Db, at: Cutoffs) =>
  db
    .select({
      node: {
        id: nodes.id,
        name: nodes.name,
        address: nodes.address,
        isGateway: nodes.isGateway,
        gatewayId: nodes.gatewayId,
        deviceId: nodes.deviceId,
      },
      lastSeenAt: nodes.lastSeenAt,
      networkId: nodes.networkId,
      groupId: networks.groupId,
      previous: nodePresence.state,
      previousSince: nodePresence.changedAt,
    })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .leftJoin(nodePresence, eq(nodePresence.nodeId, nodes.id))
    .where(
      and(
        isNull(nodes.deviceId),
        isNotNull(nodes.lastSeenAt),
        or(
          and(lt(nodes.lastSeenAt, at.onlineSince), or(isNull(nodePresence.state), eq(nodePresence.state, "online"))),
          and(gte(nodes.lastSeenAt, at.onlineSince), or(isNull(nodePresence.state), eq(nodePresence.state, "offline"))),
        ),
      ),
    )
    .limit(MAX_TRANSITIONS_PER_RUN)
    .all();

/**
 * node.offline on online (or first verdict) → offline; node.online only on offline → online (a first
 * sighting is recorded silently). Dedupe keys name the episode, so a run that dies between emitting and
 * recording is repeated harmlessly: offline by the last heartbeat it went silent after, online by the
 * offline verdict it ends. Returns the events and the presence writes to run after emitting them.
 */
export async function detectNodePresence(db: Db, at: Cutoffs) {
  const rows = await changed(db, at);
  const events: EventInput[] = [];
  const writes = rows.map((row) => {
    const state: "online" | "offline" = row.lastSeenAt! < at.onlineSince ? "offline" : "online";
    if (state === "offline") {
      events.push({
        type: "node.offline",
        networkId: row.networkId,
        groupId: row.groupId,
        subjectId: row.node.id,
        data: { node: row.node, lastSeenAt: row.lastSeenAt },
        dedupeKey: `node.offline:${row.node.id}:${row.lastSeenAt}`,
      });
    } else if (row.previous === "offline") {
      events.push({
        type: "node.online",
        networkId: row.networkId,
        groupId: row.groupId,
        subjectId: row.node.id,
        data: { node: row.node, lastSeenAt: row.lastSeenAt, offlineSince: row.previousSince },
        dedupeKey: `node.online:${row.node.id}:${row.previousSince}`,
      });
    }
    // Going offline also stops the drift clock: a node that cannot be reached is not "drifting".
    const values = { state, changedAt: at.now, updatedAt: at.now, ...(state === "offline" ? { behindSince: null } : {}) };
    return db
      .insert(nodePresence)
      .values({ nodeId: row.node.id, ...values })
      .onConflictDoUpdate({ target: nodePresence.nodeId, set: values });
  });
  return { events, writes };
}
