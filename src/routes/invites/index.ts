import { createRouter } from "../../lib/create-router";
import * as handlers from "./invites.handlers";
import * as routes from "./invites.routes";

export const invitesRouter = createRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke)
  .openapi(routes.accept, handlers.accept);
