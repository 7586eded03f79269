import type { ApiClient, Schema } from "../../client/index.ts";

/** A device without heartbeats (a WireGuard app) as its peers see it: their freshest report of a handshake with it. */
export interface PeerSeen {
  state: Schema<"Tunnel">["state"];
  lastHandshakeAt: string | null;
  /** The node whose report says so. */
  byNodeId: string;
}

/** A device (or a device's node: its id is its nodeId) that may never have sent a heartbeat. */
type Silent = Pick<Schema<"Device">, "id" | "nodeId" | "lastSeenAt">;

/** At most this many such devices a page are looked up (one GET /tunnels each). */
const MAX_LOOKUPS = 20;

/**
 * For each device that never sent a heartbeat, what the tunnels leading to its node say (GET /tunnels?nodeId: the
 * reports of its peers, as the reader may see them): the freshest handshake. A device with none is left out.
 */
export async function seenByPeers(api: ApiClient, devices: Silent[]): Promise<Map<string, PeerSeen>> {
  const silent = devices.filter((device) => device.lastSeenAt === null).slice(0, MAX_LOOKUPS);
  const reads = await Promise.all(
    silent.map((device) => api.GET("/api/v1/tunnels", { params: { query: { nodeId: device.nodeId, limit: 50 } } })),
  );
  const seen = new Map<string, PeerSeen>();
  silent.forEach((device, index) => {
    const leading = (reads[index]?.data?.items ?? []).filter((tunnel) => tunnel.fromNodeId !== device.nodeId && tunnel.lastHandshakeAt);
    const freshest = leading.sort((a, b) => Date.parse(b.lastHandshakeAt ?? "") - Date.parse(a.lastHandshakeAt ?? ""))[0];
    if (freshest) seen.set(device.id, { state: freshest.state, lastHandshakeAt: freshest.lastHandshakeAt, byNodeId: freshest.fromNodeId });
  });
  return seen;
}
