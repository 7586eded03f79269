import { createRouter } from "../../lib/create-router";
import * as handlers from "./settings.handlers";
import * as routes from "./settings.routes";

export const adminRouter = createRouter().openapi(routes.get, handlers.get).openapi(routes.put, handlers.put);
