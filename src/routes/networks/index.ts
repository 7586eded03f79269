import { createRouter } from "../../lib/create-router";
import * as handlers from "./networks.handlers";
import * as routes from "./networks.routes";
import { runtimeStatus, runtimeStatusRoute } from "./runtime-status";

export const networksRouter = createRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.put, handlers.put)
  .openapi(routes.remove, handlers.remove)
  .openapi(runtimeStatusRoute, runtimeStatus);
