import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./settings.handlers";
import * as routes from "./settings.routes";

export const adminRouter = guardedRouter("user").openapi(routes.get, handlers.get).openapi(routes.put, handlers.put);
