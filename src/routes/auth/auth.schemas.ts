import { z } from "@hono/zod-openapi";
import { isMfaChallenge, type SignInOutcome } from "../../services/auth/sign-in";
import { Email, presentUser, UserSchema } from "../../schemas/users";

export const LoginBody = z
  .strictObject({
    email: Email,
    // Sign-in does not reveal the password rules; only the length cap protects the KDF.
    password: z.string().min(1).max(256),
  })
  .openapi("LoginRequest");

export const RefreshBody = z
  .strictObject({
    refreshToken: z.string().min(1).max(512),
  })
  .openapi("RefreshRequest");

export const TokenPairSchema = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal("Bearer"),
    expiresIn: z.number().int().openapi({ description: "Access token lifetime in seconds" }),
    user: UserSchema,
  })
  .openapi("TokenPair");

export const MfaChallengeSchema = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken: z.string().openapi({ description: "Single use, 5 tries; finish with POST /auth/mfa/verify" }),
    expiresIn: z.number().int().openapi({ description: "Seconds until the mfaToken expires" }),
  })
  .openapi("MfaChallenge");

export const SignInResultSchema = z.union([TokenPairSchema, MfaChallengeSchema]).openapi("SignInResult", {
  description: "A token pair, or an MFA challenge when the account has MFA on",
});

/** The JSON every sign-in path answers with. */
export const presentSignIn = (outcome: SignInOutcome): z.infer<typeof SignInResultSchema> =>
  isMfaChallenge(outcome) ? outcome : { ...outcome, user: presentUser(outcome.user) };
