import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./policies.handlers";
import * as routes from "./policies.routes";

export const routingPoliciesRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.status, handlers.status)
  .openapi(routes.get, handlers.get)
  .openapi(routes.replace, handlers.replace)
  .openapi(routes.remove, handlers.remove);
