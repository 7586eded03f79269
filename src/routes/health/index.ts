import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./health.handlers";
import * as routes from "./health.routes";

export const healthRouter = guardedRouter("public").openapi(routes.live, handlers.live).openapi(routes.ready, handlers.ready);
