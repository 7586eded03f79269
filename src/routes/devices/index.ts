import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./devices.handlers";
import * as routes from "./devices.routes";

export const devicesRouter = guardedRouter("user")
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.getRouting, handlers.getRouting)
  .openapi(routes.putRouting, handlers.putRouting);
