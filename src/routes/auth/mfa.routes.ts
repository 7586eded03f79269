import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import { TokenPairSchema } from "./auth.schemas";
import { MfaActivateBody, MfaCodeBody, MfaEnrolmentSchema, MfaStatusSchema, MfaVerifyBody, RecoveryCodesSchema } from "./mfa.schemas";

const tags = ["MFA"];

export const status = createRoute({
  method: "get",
  path: "/auth/mfa",
  tags,
  ...signedIn,
  summary: "Whether the caller has MFA on, and how many recovery codes are left",
  responses: { 200: jsonResponse(MfaStatusSchema, "MFA status"), ...errorResponses(401) },
});

export const enrol = createRoute({
  method: "post",
  path: "/auth/mfa/enroll",
  tags,
  ...signedIn,
  summary: "Start TOTP enrolment: a new secret and otpauth URI (replaces a pending one)",
  responses: { 200: jsonResponse(MfaEnrolmentSchema, "Scan the URI, then activate"), ...errorResponses(401, 409) },
});

export const activate = createRoute({
  method: "post",
  path: "/auth/mfa/activate",
  tags,
  ...signedIn,
  summary: "Turn MFA on with a first code and the account's password; answers the 10 recovery codes",
  request: { body: jsonBody(MfaActivateBody) },
  responses: { 200: jsonResponse(RecoveryCodesSchema, "MFA is on"), ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
});

export const verify = createRoute({
  method: "post",
  path: "/auth/mfa/verify",
  tags,
  summary: "Finish a sign-in that answered mfaRequired, with a TOTP or recovery code",
  description:
    "5 tries per mfaToken; a code is accepted once (replays inside its window fail). " + "Throttled per account and per client address.",
  request: { body: jsonBody(MfaVerifyBody) },
  responses: { 200: jsonResponse(TokenPairSchema, "Signed in"), ...errorResponses(401, 413, 415, 422, 429) },
});

export const disable = createRoute({
  method: "delete",
  path: "/auth/mfa",
  tags,
  ...signedIn,
  summary: "Turn MFA off; needs a fresh TOTP code (or a recovery code)",
  request: { body: jsonBody(MfaCodeBody) },
  responses: { 204: noContent, ...errorResponses(400, 401, 413, 415, 422, 429) },
});
