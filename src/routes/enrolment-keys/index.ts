import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./enrolment-keys.handlers";
import * as routes from "./enrolment-keys.routes";

export const enrolmentKeysRouter = guardedRouter("user")
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke);
