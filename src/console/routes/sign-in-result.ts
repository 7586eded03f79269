import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { Schema } from "../../../client/index.ts";
import { getConfig } from "../../lib/env";
import { HOST_COOKIE, storeSession } from "../session";
import type { ConsoleEnv } from "../types";

/** The MFA step's token between the two forms: httpOnly, this origin, as short-lived as the API's challenge. */
export const MFA_COOKIE = "__Host-wgo_mfa";

const PROVIDERS = [
  { id: "github", label: "GitHub", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OAUTH_GITHUB_CLIENT_ID) },
  { id: "google", label: "Google", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OAUTH_GOOGLE_CLIENT_ID) },
  { id: "oidc", label: "Single sign-on", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID) },
];

/** The OAuth buttons the sign-in page shows: only providers this deployment configured. */
export const configuredProviders = (env: ConsoleEnv["Bindings"]) => PROVIDERS.filter((provider) => provider.configured(env));

/** What every way of signing in ends with: a session (cookies) and the networks page, or the MFA step. */
export function finishSignIn(c: Context<ConsoleEnv>, result: Schema<"SignInResult">) {
  if ("mfaRequired" in result) {
    setCookie(c, MFA_COOKIE, result.mfaToken, { ...HOST_COOKIE, maxAge: result.expiresIn });
    return c.redirect("/sign-in/mfa", 303);
  }
  storeSession(c, result, getConfig(c.env).REFRESH_TOKEN_TTL_SECONDS);
  deleteCookie(c, MFA_COOKIE, HOST_COOKIE);
  return c.redirect("/networks", 303);
}
