import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getConfig } from "../../lib/env";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { authorizationUrl, completeAuthorization, OAUTH_STATE_TTL_SECONDS } from "../../services/auth/oauth-flow";
import { providerFor } from "../../services/auth/oauth-providers";
import { signIn } from "../../services/auth/sign-in";
import { signedInAs } from "../../services/auth/signed-in-actor";
import { applyClaimedGroups } from "../../services/scim/oidc-groups";
import type * as routes from "./oauth.routes";
import { presentSignIn } from "./auth.schemas";

const STATE_COOKIE = "wg_oauth_state";
const COOKIE_PATH = "/api/v1/auth/oauth";

/**
 * PUBLIC_BASE_URL when set (behind a proxy); the request's own origin otherwise. Must match the provider's
 * registration. The console's flow returns to the console (same origin), which then calls the callback here.
 */
const redirectUri = (c: Context<AppEnv>, provider: string, client: "api" | "console" = "api") =>
  new URL(
    client === "console" ? `/sign-in/oauth/${provider}/callback` : `/api/v1/auth/oauth/${provider}/callback`,
    getConfig(c.env).PUBLIC_BASE_URL ?? new URL(c.req.url).origin,
  ).toString();

export const start: AppRouteHandler<typeof routes.start> = async (c) => {
  const config = getConfig(c.env);
  const provider = providerFor(config, c.req.valid("param").provider);
  const { url, state } = await authorizationUrl(c.var.db, config, provider, redirectUri(c, provider.id, c.req.valid("query").client));
  // Binds the flow to this browser: a callback URL replayed into someone else's browser lacks the cookie.
  setCookie(c, STATE_COOKIE, state, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: OAUTH_STATE_TTL_SECONDS,
  });
  return c.redirect(url, 302);
};

export const callback: AppRouteHandler<typeof routes.callback> = async (c) => {
  const config = getConfig(c.env);
  const provider = providerFor(config, c.req.valid("param").provider);
  const cookieState = getCookie(c, STATE_COOKIE);
  // Spent once its own state comes back; a forged callback (other state) leaves the real flow alive.
  if (cookieState && cookieState === c.req.query("state")) deleteCookie(c, STATE_COOKIE, { path: COOKIE_PATH });
  const redirect = redirectUri(c, provider.id, c.req.valid("query").client);
  const { user, groups } = await completeAuthorization(c.var.db, config, provider, new URL(c.req.url), redirect, cookieState);
  // The groups claim first: the session then opens on the roles the directory gives now.
  if (!user.disabledAt) await applyClaimedGroups(c.env, c.var.db, user.id, groups, signedInAs(auditOf(c, 200), user.id));
  return c.json(presentSignIn(await signIn(c.var.db, config, user, auditOf(c, 200))), 200);
};
