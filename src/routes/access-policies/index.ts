import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./access-policies.handlers";
import * as routes from "./access-policies.routes";

export const accessPoliciesRouter = guardedRouter("user")
  .openapi(routes.get, handlers.get)
  .openapi(routes.put, handlers.put)
  .openapi(routes.preview, handlers.preview)
  .openapi(routes.check, handlers.check)
  .openapi(routes.sources, handlers.sources);
