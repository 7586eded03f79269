import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./tunnels.handlers";
import * as routes from "./tunnels.routes";

export const tunnelsRouter = guardedRouter("user").openapi(routes.list, handlers.list);
