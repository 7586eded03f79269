import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { createMapping, deleteMapping, listMappings } from "../../services/scim/mappings";
import { adminWrite } from "../../services/scim/scim-guard";
import type * as routes from "./idp-mappings.routes";
import { presentMapping } from "./idp-mappings.schemas";

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const mapping = await createMapping(c.env, c.var.db, c.req.valid("json"), adminWrite(auditOf(c, 201)));
  return c.json(presentMapping(mapping), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const query = c.req.valid("query");
  return c.json(toPage(await listMappings(c.var.db, query), query.limit, presentMapping), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  requirePlatformAdmin(userOf(c));
  await deleteMapping(c.env, c.var.db, c.req.valid("param").id, adminWrite(auditOf(c, 204)));
  return c.body(null, 204);
};
