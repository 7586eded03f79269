import { Hono } from "hono";
import { NetworkStatusPage } from "../pages/network-status";
import { seenByPeers } from "../peer-seen";
import type { SignedInEnv } from "../types";
import { failure, loadNetwork } from "./network-context";

/** /networks/:id/status: desired vs applied routing and DNS per node; reloading the page is the refresh. */
export const networkStatusRoutes = new Hono<SignedInEnv>();

networkStatusRoutes.get("/networks/:id/status", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const networkId = loaded.network.id;
  const [status, nodes] = await Promise.all([
    c.var.api.GET("/api/v1/networks/{id}/runtime-status", { params: { path: { id: networkId } } }),
    c.var.api.GET("/api/v1/nodes", { params: { query: { networkId, limit: 200 } } }),
  ]);
  if (!status.data) return failure(c, status);
  if (!nodes.data) return failure(c, nodes);
  // Device nodes that never beat (a WireGuard app): when their peers last saw a handshake with them.
  const silent = nodes.data.items.filter((node) => node.deviceId && !node.redacted).map((node) => ({ ...node, nodeId: node.id }));
  const peerSeen = await seenByPeers(c.var.api, silent);
  const page = (
    <NetworkStatusPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      network={loaded.network}
      status={status.data}
      nodes={nodes.data.items}
      readAt={new Date().toISOString()}
      peerSeen={peerSeen}
    />
  );
  return c.html(page);
});
