import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import type { users } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { PASSWORD_RULES } from "../../services/auth/password";

export const Email = z.email().max(254).transform((email) => email.trim().toLowerCase())
  .openapi({ example: "ada@example.com" });

export const NewPassword = z.string().min(PASSWORD_RULES.min).max(PASSWORD_RULES.max)
  .openapi({ description: `${PASSWORD_RULES.min}-${PASSWORD_RULES.max} characters` });

export const UserSchema = z.object({
  id: z.string().openapi({ example: "usr_..." }),
  email: z.string(),
  name: z.string(),
  platformRole: z.enum(["admin", "user"]),
  disabled: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi("User");

export const CreateUserBody = z.strictObject({
  email: Email,
  name: displayName({ max: 100 }).default(""),
  password: NewPassword,
  platformRole: z.enum(["admin", "user"]).default("user"),
}).openapi("CreateUser");

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

export const UpdateUserBody = z.strictObject({
  name: displayName({ max: 100 }).optional(),
  platformRole: z.enum(["admin", "user"]).optional(),
  disabled: z.boolean().optional().openapi({ description: "true ends every session of the user at once" }),
}).openapi("UpdateUser");

export const UpdateMeBody = z.strictObject({ name: displayName({ max: 100 }) }).openapi("UpdateMe");

export const ChangePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(256),
  newPassword: NewPassword,
}).openapi("ChangePassword");

export const UserListQuery = z.object({
  email: z.string().trim().toLowerCase().max(254).optional().openapi({ description: "Exact address" }),
});
