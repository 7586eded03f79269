import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { listTunnels } from "../../services/networks/views/tunnel-list";
import { tunnelState } from "../../services/networks/views/tunnel-state";
import type * as routes from "./tunnels.routes";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { networkId, nodeId, ...page } = c.req.valid("query");
  const rows = await listTunnels(c.env, c.var.db, userOf(c), page, { networkId, nodeId });
  const now = Date.now();
  return c.json(
    toPage(rows, page.limit, ({ createdAt: _created, ...tunnel }) => ({ ...tunnel, state: tunnelState(tunnel.lastHandshakeAt, now) })),
    200,
  );
};
