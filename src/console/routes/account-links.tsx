import { type Context, Hono } from "hono";
import { getConfig } from "../../lib/env";
import { formFields, refusal } from "../form";
import { InviteAcceptPage } from "../pages/invite-accept";
import { ResetConfirmPage, ResetDonePage, ResetRequestPage } from "../pages/password-reset";
import { storeSession, type TokenPair } from "../session";
import type { ConsoleEnv } from "../types";

/**
 * The public pages mails link to: invite acceptance and password reset. No session needed; the POSTs
 * pass the CSRF check like every other (csrf.ts runs before these routes).
 */
export const accountLinkRoutes = new Hono<ConsoleEnv>();

/** The paths the API's mails link to (FRONTEND_URL + /accept-invite, /reset-password) lead here. */
const withToken = (c: Context<ConsoleEnv>, path: string) => {
  const token = c.req.query("token");
  return c.redirect(token ? `${path}?token=${encodeURIComponent(token)}` : path, 303);
};
accountLinkRoutes.get("/accept-invite", (c) => withToken(c, "/invites/accept"));
accountLinkRoutes.get("/reset-password", (c) => withToken(c, "/password-reset/confirm"));

const signedIn = (c: Context<ConsoleEnv>, pair: TokenPair) => storeSession(c, pair, getConfig(c.env).REFRESH_TOKEN_TTL_SECONDS);

accountLinkRoutes.get("/invites/accept", (c) =>
  c.html(<InviteAcceptPage csrfToken={c.var.csrfToken} user={c.var.user} token={c.req.query("token") ?? ""} />),
);

accountLinkRoutes.post("/invites/accept", async (c) => {
  const { token = "", password = "", name = "" } = await formFields(c);
  // Signed in: the session's bearer token is the proof. Otherwise the password creates or opens the account.
  const body = c.var.user ? { token } : { token, password, ...(name.trim() ? { name: name.trim() } : {}) };
  const accepted = await c.var.api.POST("/api/v1/auth/invites/accept", { body });
  if (!accepted.data) {
    const { message, fields, status } = refusal(accepted);
    return c.html(
      <InviteAcceptPage csrfToken={c.var.csrfToken} user={c.var.user} token={token} name={name} error={{ message, fields }} />,
      status,
    );
  }
  const joined = accepted.data;
  if (joined.accessToken && joined.refreshToken && joined.expiresIn) {
    signedIn(c, { accessToken: joined.accessToken, refreshToken: joined.refreshToken, expiresIn: joined.expiresIn });
  } else if (!c.var.user) {
    // An existing account joined with its password: the API gives no tokens for that, so sign it in with
    // the same password (it has no MFA, or the API would have refused the password above).
    const login = await c.var.api.POST("/api/v1/auth/login", { body: { email: joined.user.email, password } });
    if (!login.data || !("accessToken" in login.data)) return c.redirect("/sign-in", 303);
    signedIn(c, login.data);
  }
  return c.redirect(`/groups/${joined.groupId}`, 303);
});

accountLinkRoutes.get("/password-reset", (c) =>
  c.html(<ResetRequestPage csrfToken={c.var.csrfToken} sent={c.req.query("sent") === "1"} />),
);

accountLinkRoutes.post("/password-reset", async (c) => {
  const { email = "" } = await formFields(c);
  const requested = await c.var.api.POST("/api/v1/auth/password-reset/request", { body: { email: email.trim() } });
  if (requested.response.ok) return c.redirect("/password-reset?sent=1", 303);
  const { message, fields, status } = refusal(requested);
  return c.html(<ResetRequestPage csrfToken={c.var.csrfToken} email={email} error={{ message, fields }} />, status);
});

accountLinkRoutes.get("/password-reset/confirm", (c) =>
  c.html(<ResetConfirmPage csrfToken={c.var.csrfToken} token={c.req.query("token") ?? ""} />),
);

accountLinkRoutes.post("/password-reset/confirm", async (c) => {
  const { token = "", newPassword = "", repeatPassword = "" } = await formFields(c);
  if (newPassword !== repeatPassword) {
    return c.html(<ResetConfirmPage csrfToken={c.var.csrfToken} token={token} error={{ message: "The two passwords differ." }} />, 422);
  }
  const confirmed = await c.var.api.POST("/api/v1/auth/password-reset/confirm", { body: { token, newPassword } });
  if (confirmed.response.ok) return c.redirect("/password-reset/done", 303);
  const { message, fields, status } = refusal(confirmed);
  return c.html(<ResetConfirmPage csrfToken={c.var.csrfToken} token={token} error={{ message, fields }} />, status);
});

accountLinkRoutes.get("/password-reset/done", (c) => c.html(<ResetDonePage csrfToken={c.var.csrfToken} />));
