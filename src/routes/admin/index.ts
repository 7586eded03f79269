import { guardedRouter } from "../../middleware/guarded-router";
import * as mappingHandlers from "./idp-mappings.handlers";
import * as mappingRoutes from "./idp-mappings.routes";
import * as scimHandlers from "./scim-tokens.handlers";
import * as scimRoutes from "./scim-tokens.routes";
import * as handlers from "./settings.handlers";
import * as routes from "./settings.routes";

export const adminRouter = guardedRouter("user")
  .openapi(routes.get, handlers.get)
  .openapi(routes.put, handlers.put)
  .openapi(scimRoutes.create, scimHandlers.create)
  .openapi(scimRoutes.list, scimHandlers.list)
  .openapi(scimRoutes.revoke, scimHandlers.revoke)
  .openapi(mappingRoutes.create, mappingHandlers.create)
  .openapi(mappingRoutes.list, mappingHandlers.list)
  .openapi(mappingRoutes.remove, mappingHandlers.remove);
