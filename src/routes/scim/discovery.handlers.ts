import type { AppRouteHandler } from "../../lib/types";
import { resourceTypes as typesAt, schemas as schemasAt, serviceProviderConfig as configAt } from "../../services/scim/discovery";
import type * as routes from "./discovery.routes";
import { listResponse, originOf } from "./scim-list";
import { SCIM_HEADERS } from "./scim.schemas";

export const serviceProviderConfig: AppRouteHandler<typeof routes.serviceProviderConfig> = (c) =>
  c.json(configAt(originOf(c.req.url)), 200, SCIM_HEADERS);

export const resourceTypes: AppRouteHandler<typeof routes.resourceTypes> = (c) => {
  const types = typesAt(originOf(c.req.url));
  return c.json(listResponse(types, types.length, 1), 200, SCIM_HEADERS);
};

export const schemas: AppRouteHandler<typeof routes.schemas> = (c) => {
  const all = schemasAt(originOf(c.req.url));
  return c.json(listResponse(all, all.length, 1), 200, SCIM_HEADERS);
};
