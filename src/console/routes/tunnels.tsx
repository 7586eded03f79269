import { Hono } from "hono";
import type { Schema } from "../../../client/index.ts";
import { searchList } from "../list-search";
import { need, onFailure } from "../failure";
import { TunnelsPage } from "../pages/tunnels";
import type { SignedInEnv } from "../types";

export const tunnelRoutes = new Hono<SignedInEnv>();
tunnelRoutes.onError(onFailure);

/** Node names for the networks on this page (a few lists at most: one page of tunnels spans few networks). */
const MAX_NETWORKS_NAMED = 10;

tunnelRoutes.get("/tunnels", async (c) => {
  const networkId = c.req.query("network") || undefined;
  const q = c.req.query("q") || undefined;
  const networks = need(await c.var.api.GET("/api/v1/networks", { params: { query: { limit: 200 } } })).items;
  const nodeNames = new Map<string, string>();
  const named = new Set<string>();
  // Names of the nodes of the networks a page of tunnels spans (a few lists at most), read once per request.
  const learnNames = async (tunnels: Schema<"Tunnel">[]) => {
    const wanted = [...new Set(tunnels.map((tunnel) => tunnel.networkId))].filter((id) => !named.has(id));
    const room = Math.max(0, MAX_NETWORKS_NAMED - named.size);
    const lists = await Promise.all(
      wanted.slice(0, room).map((id) => {
        named.add(id);
        return c.var.api.GET("/api/v1/nodes", { params: { query: { networkId: id, limit: 200 } } });
      }),
    );
    // A list that cannot be read only costs the names (ids are shown instead), not the page.
    for (const list of lists) for (const node of list.data?.items ?? []) nodeNames.set(node.id, node.name);
  };
  const networkNames = new Map(networks.map((network) => [network.id, network.name]));
  const page = await searchList(
    async (cursor, limit) => {
      const read = need(
        await c.var.api.GET("/api/v1/tunnels", {
          params: { query: { limit: Math.min(limit, 100), ...(networkId ? { networkId } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      );
      await learnNames(read.items);
      return read;
    },
    // A tunnel is found by either end's name or its network's.
    (tunnel) => [
      nodeNames.get(tunnel.fromNodeId),
      tunnel.toNodeId ? nodeNames.get(tunnel.toNodeId) : null,
      networkNames.get(tunnel.networkId),
    ],
    q,
    c.req.query("cursor") || undefined,
    100,
  );
  return c.html(
    <TunnelsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      tunnels={page.items}
      nextCursor={page.nextCursor}
      networks={networks}
      networkId={networkId}
      nodeNames={nodeNames}
      search={q ? { q, searched: page.searched } : undefined}
    />,
  );
});
