import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { TokenPairSchema } from "./auth.schemas";
import { MfaActivateBody, MfaCodeBody, MfaEnrolmentSchema, MfaStatusSchema, MfaVerifyBody, RecoveryCodesSchema } from "./mfa.schemas";

const tags = ["MFA"];

export const status = createRoute({
  method: "get",
  path: "/auth/mfa",
  operationId: "getMfaStatus",
  tags,
  summary: "Whether the caller has MFA on, and how many recovery codes are left",
  description: "Any signed-in user, about their own account.",
  responses: { 200: jsonResponse(MfaStatusSchema, "MFA status"), ...errorResponses(401) },
});

export const enrol = createRoute({
  method: "post",
  path: "/auth/mfa/enroll",
  operationId: "startMfaEnrolment",
  tags,
  summary: "Start TOTP enrolment: a new secret and otpauth URI (replaces a pending one)",
  description:
    "Any signed-in user. Nothing changes until POST /auth/mfa/activate confirms a code from the new secret; 409 when MFA is already on.",
  responses: { 200: jsonResponse(MfaEnrolmentSchema, "Scan the URI, then activate"), ...errorResponses(401, 409) },
});

export const activate = createRoute({
  method: "post",
  path: "/auth/mfa/activate",
  operationId: "activateMfa",
  tags,
  summary: "Turn MFA on with a first code and the account's password; answers the 10 recovery codes",
  description:
    "Any signed-in user with a pending enrolment. Needs a current code of the pending secret and the account's password (wrong passwords count against the login throttle). The recovery codes are shown only in this answer; each works once. Later sign-ins answer mfaRequired.",
  request: { body: jsonBody(MfaActivateBody) },
  responses: { 200: jsonResponse(RecoveryCodesSchema, "MFA is on"), ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
});

export const verify = createRoute({
  method: "post",
  path: "/auth/mfa/verify",
  operationId: "verifyMfa",
  tags,
  summary: "Finish a sign-in that answered mfaRequired, with a TOTP or recovery code",
  description:
    "Public: the mfaToken from POST /auth/login (or an OAuth callback) is the credential. " +
    "5 tries per mfaToken; a code is accepted once (replays inside its window fail). " +
    "Throttled per account and per client address.",
  request: { body: jsonBody(MfaVerifyBody) },
  responses: { 200: jsonResponse(TokenPairSchema, "Signed in"), ...errorResponses(401, 413, 415, 422, 429) },
});

export const disable = createRoute({
  method: "delete",
  path: "/auth/mfa",
  operationId: "disableMfa",
  tags,
  summary: "Turn MFA off; needs a fresh TOTP code (or a recovery code)",
  description:
    "Any signed-in user, for their own account. The body carries a current TOTP code or an unused recovery code; wrong codes are throttled.",
  request: { body: jsonBody(MfaCodeBody) },
  responses: { 204: noContent, ...errorResponses(400, 401, 413, 415, 422, 429) },
});
