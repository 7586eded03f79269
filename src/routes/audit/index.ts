import { signedInRouter } from "../../middleware/signed-in-router";
import * as handlers from "./audit.handlers";
import * as routes from "./audit.routes";

export const auditRouter = signedInRouter().openapi(routes.list, handlers.list);
