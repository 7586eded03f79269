import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { Email, NewPassword } from "../../schemas/users";

const tags = ["Auth"];

export const ResetRequestBody = z.strictObject({ email: Email }).openapi("PasswordResetRequest");
export const ResetConfirmBody = z
  .strictObject({
    token: z.string().min(1).max(128),
    newPassword: NewPassword,
  })
  .openapi("PasswordResetConfirm");
export const AcceptedSchema = z.object({ message: z.string() }).openapi("Accepted");

export const request = createRoute({
  method: "post",
  path: "/auth/password-reset/request",
  operationId: "requestPasswordReset",
  tags,
  summary: "Mail a reset token to the account's address",
  description:
    "Public. " +
    "Answers 202 with the same body whether or not an account uses the address. " +
    "Throttled per address requested and per client address (429 with Retry-After).",
  request: { body: jsonBody(ResetRequestBody) },
  responses: { 202: jsonResponse(AcceptedSchema, "If the account exists, a token was mailed"), ...errorResponses(413, 415, 422, 429) },
});

export const confirm = createRoute({
  method: "post",
  path: "/auth/password-reset/confirm",
  operationId: "confirmPasswordReset",
  tags,
  summary: "Set a new password with a mailed token; every session of the account ends",
  description:
    "Public: the mailed token is the credential. Every session of the account ends. " +
    "The token works once and expires (PASSWORD_RESET_TTL_SECONDS, 30 min by default).",
  request: { body: jsonBody(ResetConfirmBody) },
  responses: { 204: noContent, ...errorResponses(400, 413, 415, 422, 429) },
});
