import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./policies.handlers";
import * as routes from "./policies.routes";

export const routingPoliciesRouter = createRouter()
  .route(
    "/",
    guardedRouter("user").openapi(routes.list, handlers.list).openapi(routes.status, handlers.status).openapi(routes.get, handlers.get),
  )
  // Writes: the network's writer checks the caller's session and role (objects/network/authority/write-authority.ts).
  .route(
    "/",
    guardedRouter("userWrites")
      .openapi(routes.create, handlers.create)
      .openapi(routes.replace, handlers.replace)
      .openapi(routes.remove, handlers.remove),
  );
