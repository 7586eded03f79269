import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./pools.handlers";
import * as routes from "./pools.routes";

export const gatewayPoolsRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.drain, handlers.drain)
  .openapi(routes.undrain, handlers.undrain);
