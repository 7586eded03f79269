import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./metrics.handlers";
import * as routes from "./metrics.routes";
import * as tokenRoutes from "./token.routes";

/** GET /metrics authenticates itself (metrics token or admin); the token's management needs a signed-in admin. */
const scrapeRouter = guardedRouter("metricsReader").openapi(routes.scrape, handlers.scrape);

const tokenRouter = guardedRouter("user")
  .openapi(tokenRoutes.issue, handlers.issue)
  .openapi(tokenRoutes.show, handlers.show)
  .openapi(tokenRoutes.revoke, handlers.revoke);

export const metricsRouter = createRouter().route("/", scrapeRouter).route("/", tokenRouter);
