import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./nodes.handlers";
import * as routes from "./nodes.routes";

export const nodesRouter = signedInRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.config, handlers.config);
