import { guardedRouter } from "../../middleware/guarded-router";
import * as discovery from "./discovery.handlers";
import * as discoveryRoutes from "./discovery.routes";
import * as groups from "./groups.handlers";
import * as groupRoutes from "./groups.routes";
import * as users from "./users.handlers";
import * as userRoutes from "./users.routes";

/** SCIM 2.0 for an identity provider's provisioning client: a SCIM token on these routes and nowhere else. */
export const scimRouter = guardedRouter("scim")
  .openapi(discoveryRoutes.serviceProviderConfig, discovery.serviceProviderConfig)
  .openapi(discoveryRoutes.resourceTypes, discovery.resourceTypes)
  .openapi(discoveryRoutes.schemas, discovery.schemas)
  .openapi(userRoutes.create, users.create)
  .openapi(userRoutes.list, users.list)
  .openapi(userRoutes.get, users.get)
  .openapi(userRoutes.replace, users.replace)
  .openapi(userRoutes.patch, users.patch)
  .openapi(userRoutes.remove, users.remove)
  .openapi(groupRoutes.create, groups.create)
  .openapi(groupRoutes.list, groups.list)
  .openapi(groupRoutes.get, groups.get)
  .openapi(groupRoutes.replace, groups.replace)
  .openapi(groupRoutes.patch, groups.patch)
  .openapi(groupRoutes.remove, groups.remove);
