import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./networks.handlers";
import * as routes from "./networks.routes";

export const networksRouter = signedInRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.put, handlers.put)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.runtimeStatus, handlers.runtimeStatus)
  .openapi(routes.writerStats, handlers.writerStats);
