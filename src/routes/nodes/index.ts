import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./nodes.handlers";
import * as routes from "./nodes.routes";
import * as pathHandlers from "./paths.handlers";
import * as pathRoutes from "./paths.routes";
import { createRouter } from "../../lib/create-router";

export const nodesRouter = createRouter()
  .route(
    "/",
    guardedRouter("user").openapi(routes.list, handlers.list).openapi(routes.get, handlers.get).openapi(routes.config, handlers.config),
  )
  // Writes: the network's writer checks the caller's session and role (objects/network/authority/write-authority.ts).
  .route(
    "/",
    guardedRouter("userWrites")
      .openapi(routes.create, handlers.create)
      .openapi(routes.update, handlers.update)
      .openapi(routes.remove, handlers.remove),
  )
  // A device reads its own node's paths with its credential (wgo status).
  .route("/", guardedRouter("deviceOrUser").openapi(pathRoutes.paths, pathHandlers.paths));
