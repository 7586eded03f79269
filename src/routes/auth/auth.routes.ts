import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { LoginBody, RefreshBody, SignInResultSchema, TokenPairSchema } from "./auth.schemas";

const tags = ["Auth"];

export const login = createRoute({
  method: "post",
  path: "/auth/login",
  operationId: "login",
  tags,
  summary: "Sign in with email and password",
  description:
    "Public. " +
    "Answers a token pair, or `{ mfaRequired, mfaToken }` when the account has MFA on. " +
    "Failures are throttled per account from one client address, per client address, and under a far higher " +
    "per-account ceiling, so other addresses' failures do not lock the owner out (429 with Retry-After).",
  request: { body: jsonBody(LoginBody) },
  responses: { 200: jsonResponse(SignInResultSchema, "Signed in, or an MFA challenge"), ...errorResponses(401, 413, 415, 422, 429) },
});

export const refresh = createRoute({
  method: "post",
  path: "/auth/refresh",
  operationId: "refreshSession",
  tags,
  summary: "Rotate a refresh token for a new token pair",
  description:
    "Public: the refresh token is the credential. " +
    "Every refresh token works once. Presenting a used one again revokes the whole session " +
    "(except within 10 s, when it returns the same successor, so concurrent clients do not log themselves out).",
  request: { body: jsonBody(RefreshBody) },
  responses: { 200: jsonResponse(TokenPairSchema, "New tokens"), ...errorResponses(401, 413, 415, 422) },
});

export const logout = createRoute({
  method: "post",
  path: "/auth/logout",
  operationId: "logout",
  tags,
  summary: "End the current session (its refresh tokens stop working, and so does this access token)",
  description:
    "Any signed-in user, for the session of the access token sent. Its refresh tokens stop working and the access token is refused from now on (the session is checked on every call).",
  responses: { 204: noContent, ...errorResponses(401) },
});
