import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./access-policies.handlers";
import * as routes from "./access-policies.routes";
import * as revisionHandlers from "./access-policy-revisions.handlers";
import * as revisionRoutes from "./access-policy-revisions.routes";

export const accessPoliciesRouter = createRouter()
  .route(
    "/",
    guardedRouter("user")
      .openapi(routes.get, handlers.get)
      .openapi(routes.preview, handlers.preview)
      .openapi(routes.check, handlers.check)
      .openapi(routes.sources, handlers.sources)
      .openapi(revisionRoutes.list, revisionHandlers.list)
      .openapi(revisionRoutes.read, revisionHandlers.read),
  )
  // The PUT: the network's writer checks the caller's session and role (objects/network/authority/write-authority.ts).
  .route("/", guardedRouter("userWrites").openapi(routes.put, handlers.put));
