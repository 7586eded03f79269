import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./nodes.handlers";
import * as routes from "./nodes.routes";

export const nodesRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.config, handlers.config);
