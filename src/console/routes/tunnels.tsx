import { Hono } from "hono";
import { need, onFailure } from "../failure";
import { TunnelsPage } from "../pages/tunnels";
import type { SignedInEnv } from "../types";

export const tunnelRoutes = new Hono<SignedInEnv>();
tunnelRoutes.onError(onFailure);

/** Node names for the networks on this page (a few lists at most: one page of tunnels spans few networks). */
const MAX_NETWORKS_NAMED = 10;

tunnelRoutes.get("/tunnels", async (c) => {
  const networkId = c.req.query("network") || undefined;
  const cursor = c.req.query("cursor") || undefined;
  const [tunnels, networks] = await Promise.all([
    c.var.api.GET("/api/v1/tunnels", {
      params: { query: { limit: 100, ...(networkId ? { networkId } : {}), ...(cursor ? { cursor } : {}) } },
    }),
    c.var.api.GET("/api/v1/networks", { params: { query: { limit: 200 } } }),
  ]);
  const page = need(tunnels);
  const shown = [...new Set(page.items.map((tunnel) => tunnel.networkId))].slice(0, MAX_NETWORKS_NAMED);
  const nodeLists = await Promise.all(
    shown.map((id) => c.var.api.GET("/api/v1/nodes", { params: { query: { networkId: id, limit: 200 } } })),
  );
  // A list that cannot be read only costs the names (ids are shown instead), not the page.
  const nodeNames = new Map(nodeLists.flatMap((list) => (list.data?.items ?? []).map((node) => [node.id, node.name] as const)));
  return c.html(
    <TunnelsPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      tunnels={page.items}
      nextCursor={page.nextCursor}
      networks={need(networks).items}
      networkId={networkId}
      nodeNames={nodeNames}
    />,
  );
});
