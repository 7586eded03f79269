import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./managed-client.handlers";
import * as routes from "./managed-client.routes";

/** The managed client's own API (the spec's `/client/devices`): enrolment, config and heartbeat of a device. */
export const managedClientRouter = createRouter()
  .route("/", guardedRouter("optionalUser").openapi(routes.enrol, handlers.enrol))
  .route("/", guardedRouter("deviceOrUser").openapi(routes.config, handlers.config).openapi(routes.heartbeat, handlers.heartbeat));
