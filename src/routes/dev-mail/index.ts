import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./dev-mail.handlers";
import * as routes from "./dev-mail.routes";

/** Off unless MAIL_TRANSPORT=dev: then the README's dev flow and the tests read tokens from here. */
export const devMailRouter = guardedRouter("public").openapi(routes.listDevMail, handlers.listDevMail);
