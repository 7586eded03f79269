import { and, asc, eq, or } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { memberships, networks, nodes, tunnelObservations } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { tunnelState } from "../../services/networks/views/tunnel-state";
import * as routes from "./tunnels.routes";

const peer = alias(nodes, "peer");

/** The peer's node is resolved here (by network and public key), so heartbeats never pay for it. */
const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor, networkId, nodeId } = c.req.valid("query");
  const { db, auth } = c.var;
  const t = tunnelObservations;
  const query = db.select({ tunnel: t, toNodeId: peer.id }).from(t)
    .innerJoin(networks, eq(networks.id, t.networkId))
    .leftJoin(peer, and(eq(peer.networkId, t.networkId), eq(peer.publicKey, t.peerPublicKey)));
  const scoped = auth.platformRole === "admin"
    ? query
    : query.innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)));
  const rows = await scoped
    .where(and(
      networkId ? eq(t.networkId, networkId) : undefined,
      nodeId ? or(eq(t.fromNodeId, nodeId), eq(peer.id, nodeId)) : undefined,
      afterCursor(t, cursor),
    ))
    .orderBy(asc(t.createdAt), asc(t.id)).limit(limit + 1).all();
  const now = Date.now();
  const flat = rows.map((row) => ({ ...row.tunnel, toNodeId: row.toNodeId }));
  return c.json(toPage(flat, limit, ({ createdAt: _created, ...tunnel }) => ({ ...tunnel, state: tunnelState(tunnel.lastHandshakeAt, now) })), 200);
};

export const tunnelsRouter = createRouter().openapi(routes.list, list);
