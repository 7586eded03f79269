import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { readAuditLog } from "../../services/audit/log";
import type * as routes from "./audit.routes";
import { presentAuditEvent } from "./audit.schemas";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const query = c.req.valid("query");
  return c.json(toPage(await readAuditLog(c.var.db, userOf(c), query), query.limit, presentAuditEvent), 200);
};
