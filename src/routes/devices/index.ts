import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./devices.handlers";
import * as routes from "./devices.routes";

export const devicesRouter = signedInRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.getRouting, handlers.getRouting)
  .openapi(routes.putRouting, handlers.putRouting);
