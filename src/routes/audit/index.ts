import { createRouter } from "../../lib/create-router";
import * as handlers from "./audit.handlers";
import * as routes from "./audit.routes";

export const auditRouter = createRouter().openapi(routes.list, handlers.list);
