import { createRouter } from "../../lib/create-router";
import { guardedRouter } from "../../middleware/guarded-router";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";
import * as mfa from "./mfa.handlers";
import * as mfaRoutes from "./mfa.routes";
import * as oauth from "./oauth.handlers";
import * as oauthRoutes from "./oauth.routes";
import * as reset from "./password-reset.handlers";
import * as resetRoutes from "./password-reset.routes";

// Public and signed-in routes alternate so the document lists them in the order it always has.
export const authRouter = createRouter()
  .route("/", guardedRouter("public").openapi(routes.login, handlers.login).openapi(routes.refresh, handlers.refresh))
  .route("/", guardedRouter("user").openapi(routes.logout, handlers.logout))
  .route("/", guardedRouter("public").openapi(resetRoutes.request, reset.request).openapi(resetRoutes.confirm, reset.confirm))
  .route(
    "/",
    guardedRouter("user")
      .openapi(mfaRoutes.status, mfa.status)
      .openapi(mfaRoutes.enrol, mfa.enrol)
      .openapi(mfaRoutes.activate, mfa.activate),
  )
  .route("/", guardedRouter("public").openapi(mfaRoutes.verify, mfa.verify))
  .route("/", guardedRouter("user").openapi(mfaRoutes.disable, mfa.disable))
  .route("/", guardedRouter("public").openapi(oauthRoutes.start, oauth.start).openapi(oauthRoutes.callback, oauth.callback));
