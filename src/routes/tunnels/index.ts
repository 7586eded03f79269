import { createRouter } from "../../lib/create-router";
import * as handlers from "./tunnels.handlers";
import * as routes from "./tunnels.routes";

export const tunnelsRouter = createRouter().openapi(routes.list, handlers.list);
