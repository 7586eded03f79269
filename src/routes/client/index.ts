import { createRouter } from "../../lib/create-router";
import * as handlers from "./client.handlers";
import * as routes from "./client.routes";

export const clientRouter = createRouter()
  .openapi(routes.enrol, handlers.enrol)
  .openapi(routes.config, handlers.config)
  .openapi(routes.heartbeat, handlers.heartbeat);
