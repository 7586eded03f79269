import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./invites.handlers";
import * as routes from "./invites.routes";

export const invitesRouter = createRouter()
  .route(
    "/",
    guardedRouter("user")
      .openapi(routes.create, handlers.create)
      .openapi(routes.list, handlers.list)
      .openapi(routes.revoke, handlers.revoke),
  )
  .route("/", guardedRouter("optionalUser").openapi(routes.accept, handlers.accept));
