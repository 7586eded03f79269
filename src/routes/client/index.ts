import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./client.handlers";
import * as routes from "./client.routes";

export const clientRouter = createRouter()
  .route("/", guardedRouter("optionalUser").openapi(routes.enrol, handlers.enrol))
  .route("/", guardedRouter("deviceOrUser").openapi(routes.config, handlers.config).openapi(routes.heartbeat, handlers.heartbeat));
