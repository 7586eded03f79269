import { createRouter } from "../../lib/create-router";
import * as handlers from "./policies.handlers";
import * as routes from "./policies.routes";

export const routingPoliciesRouter = createRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.replace, handlers.replace)
  .openapi(routes.remove, handlers.remove);
