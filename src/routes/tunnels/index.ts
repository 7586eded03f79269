import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./tunnels.handlers";
import * as routes from "./tunnels.routes";

export const tunnelsRouter = signedInRouter().openapi(routes.list, handlers.list);
