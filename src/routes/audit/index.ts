import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./audit.handlers";
import * as routes from "./audit.routes";

export const auditRouter = guardedRouter("user").openapi(routes.list, handlers.list);
