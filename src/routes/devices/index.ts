import { createRouter } from "../../lib/create-router";
import * as handlers from "./devices.handlers";
import * as routes from "./devices.routes";

export const devicesRouter = createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.getRouting, handlers.getRouting)
  .openapi(routes.putRouting, handlers.putRouting);
