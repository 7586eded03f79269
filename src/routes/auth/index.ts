import { createRouter } from "../../lib/create-router";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";
import * as mfa from "./mfa.handlers";
import * as mfaRoutes from "./mfa.routes";
import * as oauth from "./oauth.handlers";
import * as oauthRoutes from "./oauth.routes";
import * as reset from "./password-reset.handlers";
import * as resetRoutes from "./password-reset.routes";

export const authRouter = createRouter()
  .openapi(routes.login, handlers.login)
  .openapi(routes.refresh, handlers.refresh)
  .openapi(routes.logout, handlers.logout)
  .openapi(resetRoutes.request, reset.request)
  .openapi(resetRoutes.confirm, reset.confirm)
  .openapi(mfaRoutes.status, mfa.status)
  .openapi(mfaRoutes.enrol, mfa.enrol)
  .openapi(mfaRoutes.activate, mfa.activate)
  .openapi(mfaRoutes.verify, mfa.verify)
  .openapi(mfaRoutes.disable, mfa.disable)
  .openapi(oauthRoutes.start, oauth.start)
  .openapi(oauthRoutes.callback, oauth.callback);
