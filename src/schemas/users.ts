import { z } from "@hono/zod-openapi";
import type { users } from "../db/schema";
import { Timestamp } from "../lib/openapi";
import { PASSWORD_RULES } from "../lib/password-rules";

/** Shared by the users, auth and invites routes. */
export const Email = z
  .email()
  .max(254)
  .transform((email) => email.trim().toLowerCase())
  .openapi({ example: "ada@example.com" });

export const NewPassword = z
  .string()
  .min(PASSWORD_RULES.min)
  .max(PASSWORD_RULES.max)
  .openapi({ description: `${PASSWORD_RULES.min}-${PASSWORD_RULES.max} characters` });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: "usr_..." }),
    email: z.string(),
    name: z.string(),
    platformRole: z.enum(["admin", "user"]),
    disabled: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("User");

/** The one way a user leaves the server: never the password hash. */
export const presentUser = (user: typeof users.$inferSelect): z.infer<typeof UserSchema> => ({
  id: user.id,
  email: user.email,
  name: user.name,
  platformRole: user.platformRole,
  disabled: user.disabledAt !== null,
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
});
