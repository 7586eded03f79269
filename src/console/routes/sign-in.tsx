import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getConfig } from "../../lib/env";
import { formFields, refusal } from "../form";
import { MfaPage, SignInPage } from "../pages/sign-in";
import { clearSession, storeSession, type TokenPair } from "../session";
import type { ConsoleEnv } from "../types";

/** The MFA step's token between the two forms: httpOnly, this origin, as short-lived as the API's challenge. */
const MFA_COOKIE = "__Host-wgo_mfa";

const PROVIDERS = [
  { id: "github", label: "GitHub", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OAUTH_GITHUB_CLIENT_ID) },
  { id: "google", label: "Google", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OAUTH_GOOGLE_CLIENT_ID) },
  { id: "oidc", label: "Single sign-on", configured: (env: ConsoleEnv["Bindings"]) => Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID) },
];

export const signInRoutes = new Hono<ConsoleEnv>();

const providersOf = (env: ConsoleEnv["Bindings"]) => PROVIDERS.filter((provider) => provider.configured(env));

function signedIn(c: Context<ConsoleEnv>, pair: TokenPair) {
  storeSession(c, pair, getConfig(c.env).REFRESH_TOKEN_TTL_SECONDS);
  deleteCookie(c, MFA_COOKIE, { path: "/", secure: true });
  return c.redirect("/networks", 303);
}

signInRoutes.get("/sign-in", (c) => {
  if (c.var.user) return c.redirect("/networks", 303);
  return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={providersOf(c.env)} />);
});

signInRoutes.post("/sign-in", async (c) => {
  const { email = "", password = "" } = await formFields(c);
  const result = await c.var.api.POST("/api/v1/auth/login", { body: { email, password } });
  if (!result.data) {
    const { message, status } = refusal(result);
    const error = status === 401 ? "Wrong email or password." : message;
    return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={providersOf(c.env)} email={email} error={error} />, status);
  }
  if ("mfaRequired" in result.data) {
    setCookie(c, MFA_COOKIE, result.data.mfaToken, {
      path: "/",
      secure: true,
      httpOnly: true,
      sameSite: "Strict",
      maxAge: result.data.expiresIn,
    });
    return c.redirect("/sign-in/mfa", 303);
  }
  return signedIn(c, result.data);
});

signInRoutes.get("/sign-in/mfa", (c) => {
  if (!getCookie(c, MFA_COOKIE)) return c.redirect("/sign-in", 303);
  return c.html(<MfaPage csrfToken={c.var.csrfToken} />);
});

signInRoutes.post("/sign-in/mfa", async (c) => {
  const mfaToken = getCookie(c, MFA_COOKIE);
  if (!mfaToken) return c.redirect("/sign-in", 303);
  const { code = "" } = await formFields(c);
  const result = await c.var.api.POST("/api/v1/auth/mfa/verify", { body: { mfaToken, code: code.replace(/\s+/g, "") } });
  if (!result.data) {
    const { message, status } = refusal(result);
    return c.html(
      <MfaPage csrfToken={c.var.csrfToken} error={status === 401 ? "That code is not valid. Try the current one." : message} />,
      status,
    );
  }
  return signedIn(c, result.data);
});

/** Ends the session at the API (its refresh token and access tokens stop working), then forgets the cookies. */
signInRoutes.post("/sign-out", async (c) => {
  if (c.var.user) await c.var.api.POST("/api/v1/auth/logout");
  clearSession(c);
  return c.redirect("/sign-in", 303);
});
