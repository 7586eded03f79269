import { z } from "@hono/zod-openapi";
import { Email, UserSchema } from "../users/users.schemas";

export const LoginBody = z.strictObject({
  email: Email,
  // Sign-in does not reveal the password rules; only the length cap protects the KDF.
  password: z.string().min(1).max(256),
}).openapi("LoginRequest");

export const RefreshBody = z.strictObject({
  refreshToken: z.string().min(1).max(512),
}).openapi("RefreshRequest");

export const TokenPairSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiresIn: z.number().int().openapi({ description: "Access token lifetime in seconds" }),
  user: UserSchema,
}).openapi("TokenPair");
