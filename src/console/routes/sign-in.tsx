import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { formFields, refusal } from "../form";
import { MfaPage, SignInPage } from "../pages/sign-in";
import { clearSession } from "../session";
import { configuredProviders, finishSignIn, MFA_COOKIE } from "./sign-in-result";
import type { ConsoleEnv } from "../types";

export const signInRoutes = new Hono<ConsoleEnv>();

signInRoutes.get("/sign-in", (c) => {
  if (c.var.user) return c.redirect("/networks", 303);
  return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={configuredProviders(c.env)} />);
});

signInRoutes.post("/sign-in", async (c) => {
  const { email = "", password = "" } = await formFields(c);
  const result = await c.var.api.POST("/api/v1/auth/login", { body: { email, password } });
  if (!result.data) {
    const { message, status } = refusal(result);
    const error = status === 401 ? "Wrong email or password." : message;
    return c.html(<SignInPage csrfToken={c.var.csrfToken} providers={configuredProviders(c.env)} email={email} error={error} />, status);
  }
  return finishSignIn(c, result.data);
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
  return finishSignIn(c, result.data);
});

/** Ends the session at the API (its refresh token and access tokens stop working), then forgets the cookies. */
signInRoutes.post("/sign-out", async (c) => {
  if (c.var.user) await c.var.api.POST("/api/v1/auth/logout");
  clearSession(c);
  return c.redirect("/sign-in", 303);
});
