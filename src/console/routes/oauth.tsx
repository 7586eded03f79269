import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { refusal } from "../form";
import { HOST_COOKIE } from "../session";
import { SignInPage } from "../pages/sign-in";
import { configuredProviders, finishSignIn } from "./sign-in-result";
import type { ConsoleEnv } from "../types";

/**
 * OAuth through the console: the API runs the flow (state, PKCE, linking rules) with `client=console`, so the
 * provider returns to the console's callback below, which calls the API's callback server-side and keeps the
 * tokens in the session cookies. The API's state cookie is scoped to its own path; the console carries it in
 * its own __Host- cookie and hands it back, so the flow stays bound to the browser that started it.
 */
const STATE_COOKIE = "__Host-wgo_oauth";
const API_STATE_COOKIE = "wg_oauth_state";

export const oauthRoutes = new Hono<ConsoleEnv>();

function stateFrom(setCookies: string[]) {
  const line = setCookies.find((cookie) => cookie.startsWith(`${API_STATE_COOKIE}=`));
  return line?.slice(API_STATE_COOKIE.length + 1).split(";")[0];
}

oauthRoutes.get("/sign-in/oauth/:provider", async (c) => {
  const started = await c.var.api.GET("/api/v1/auth/oauth/{provider}/start", {
    params: { path: { provider: c.req.param("provider") }, query: { client: "console" } },
  });
  const location = started.response.headers.get("Location");
  const state = stateFrom((started.response.headers as unknown as { getSetCookie(): string[] }).getSetCookie());
  if (started.response.status !== 302 || !location || !state) {
    const { message, status } = refusal(started);
    return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={configuredProviders(c.env)} error={message} />, status);
  }
  // Lax (session.ts): the provider's redirect back is a cross-site top-level GET, which Lax cookies accompany.
  setCookie(c, STATE_COOKIE, state, { ...HOST_COOKIE, maxAge: 600 });
  return c.redirect(location, 302);
});

oauthRoutes.get("/sign-in/oauth/:provider/callback", async (c) => {
  const state = getCookie(c, STATE_COOKIE);
  deleteCookie(c, STATE_COOKIE, HOST_COOKIE);
  const query = { ...c.req.query(), client: "console" as const };
  const result = await c.var.api.GET("/api/v1/auth/oauth/{provider}/callback", {
    params: { path: { provider: c.req.param("provider") }, query },
    headers: state ? { Cookie: `${API_STATE_COOKIE}=${state}` } : {},
  });
  if (!result.data) {
    const { message, status } = refusal(result);
    return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={configuredProviders(c.env)} error={message} />, status);
  }
  return finishSignIn(c, result.data);
});
