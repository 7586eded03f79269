import { type Context, Hono } from "hono";
import type { Schema } from "../../../client/index.ts";
import { getConfig } from "../../lib/env";
import { searchWords } from "../list-search";
import { buildMap } from "../pages/network-map-model";
import { NetworkMapPage } from "../pages/network-map";
import type { SignedInEnv } from "../types";
import { failure, loadNetwork } from "./network-context";

/** /networks/:id/map: the network drawn (chains and pools, gateways, devices or their tag groups, relayed pairs). */
export const networkMapRoutes = new Hono<SignedInEnv>();

type C = Context<SignedInEnv>;
type Failed = { failed: { error?: unknown; response: Response } };

/** The API's pages of nodes read for one map (200 each): the map covers 10,000 nodes and says when there are more. */
export const MAP_NODE_PAGES = 50;

/** Every node of the network, page after page from the API, up to MAP_NODE_PAGES pages. */
async function readNodes(c: C, networkId: string): Promise<{ nodes: Schema<"Node">[]; truncated: boolean } | Failed> {
  const nodes: Schema<"Node">[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAP_NODE_PAGES; page++) {
    const read = await c.var.api.GET("/api/v1/nodes", { params: { query: { networkId, limit: 200, ...(cursor ? { cursor } : {}) } } });
    if (!read.data) return { failed: read };
    nodes.push(...read.data.items);
    cursor = read.data.nextCursor ?? undefined;
    if (!cursor) return { nodes, truncated: false };
  }
  return { nodes, truncated: true };
}

/** The routing side: policies (read whole, up to 200, as the policies page does) with their status, and the pools. */
async function readRouting(c: C, networkId: string) {
  const path = { params: { path: { id: networkId } } };
  const [policies, pools] = await Promise.all([
    c.var.api.GET("/api/v1/networks/{id}/routing-policies", { params: { path: { id: networkId }, query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/networks/{id}/gateway-pools", path),
  ]);
  if (!policies.data) return { failed: policies };
  if (!pools.data) return { failed: pools };
  const statuses = await Promise.all(
    policies.data.items.map((policy) => c.var.api.GET("/api/v1/routing-policies/{id}/status", { params: { path: { id: policy.id } } })),
  );
  const withStatus = policies.data.items.map((policy, index) => ({ policy, status: statuses[index]?.data }));
  return { policies: withStatus, pools: pools.data.items };
}

networkMapRoutes.get("/networks/:id/map", async (c) => {
  const loaded = await loadNetwork(c);
  if (loaded instanceof Response) return loaded;
  const networkId = loaded.network.id;
  const [nodes, routing, status, pairs] = await Promise.all([
    readNodes(c, networkId),
    readRouting(c, networkId),
    c.var.api.GET("/api/v1/networks/{id}/runtime-status", { params: { path: { id: networkId } } }),
    // They name every member's devices: the API answers the group's owners and admins, so nobody else asks.
    loaded.canChange ? c.var.api.GET("/api/v1/networks/{id}/relayed-pairs", { params: { path: { id: networkId } } }) : undefined,
  ]);
  if ("failed" in nodes) return failure(c, nodes.failed);
  if ("failed" in routing) return failure(c, routing.failed as Failed["failed"]);
  const q = c.req.query("q")?.trim() || undefined;
  const map = buildMap({
    nodes: nodes.nodes,
    policies: routing.policies,
    pools: routing.pools,
    status: status.data,
    pairs: pairs?.data?.items ?? null,
    q: searchWords(q),
    open: c.req.query("open"),
    now: Date.now(),
    offlineAfterMs: getConfig(c.env).OFFLINE_AFTER_SECONDS * 1000,
  });
  const page = (
    <NetworkMapPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      network={loaded.network}
      map={map}
      q={q?.slice(0, 100)}
      truncated={nodes.truncated ? { readLimit: nodes.nodes.length } : null}
      readAt={new Date().toISOString()}
    />
  );
  return c.html(page);
});
