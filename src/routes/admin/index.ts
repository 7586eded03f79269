import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./settings.handlers";
import * as routes from "./settings.routes";

export const adminRouter = signedInRouter().openapi(routes.get, handlers.get).openapi(routes.put, handlers.put);
