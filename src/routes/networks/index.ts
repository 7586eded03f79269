import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./networks.handlers";
import * as routes from "./networks.routes";

export const networksRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.put, handlers.put)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.runtimeStatus, handlers.runtimeStatus)
  .openapi(routes.relayedPairs, handlers.relayedPairs)
  .openapi(routes.writerStats, handlers.writerStats);
