import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as artifacts from "./artifacts.handlers";
import * as handlers from "./dns.handlers";
import * as routes from "./dns.routes";

export const dnsRouter = createRouter()
  .route(
    "/",
    guardedRouter("user")
      .openapi(routes.list, handlers.list)
      .openapi(routes.get, handlers.get)
      .openapi(routes.corefile, artifacts.corefile)
      .openapi(routes.zonefile, artifacts.zonefile),
  )
  // Writes: the network's writer checks the caller's session and role (objects/network/authority/write-authority.ts).
  .route(
    "/",
    guardedRouter("userWrites")
      .openapi(routes.create, handlers.create)
      .openapi(routes.replace, handlers.replace)
      .openapi(routes.remove, handlers.remove),
  );
