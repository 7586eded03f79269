import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { authorizeNetwork } from "../../services/authorization";
import { listAccessRevisions, readAccessRevision } from "../../services/networks/access-revisions";
import type * as routes from "./access-policy-revisions.routes";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  const { limit, cursor } = c.req.valid("query");
  return c.json(await listAccessRevisions(c.var.db, network.id, limit, cursor), 200);
};

export const read: AppRouteHandler<typeof routes.read> = async (c) => {
  const { id, revision } = c.req.valid("param");
  const { network } = await authorizeNetwork(c.var.db, userOf(c), id, "read");
  return c.json(await readAccessRevision(c.var.db, network.id, revision), 200);
};
