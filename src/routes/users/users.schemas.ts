import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Email, NewPassword } from "../../schemas/users";

export const CreateUserBody = z
  .strictObject({
    email: Email,
    name: displayName({ max: 100 }).default(""),
    password: NewPassword,
    platformRole: z.enum(["admin", "user"]).default("user"),
  })
  .openapi("CreateUser");

export const UpdateUserBody = z
  .strictObject({
    name: displayName({ max: 100 }).optional(),
    platformRole: z.enum(["admin", "user"]).optional(),
    disabled: z.boolean().optional().openapi({ description: "true ends every session of the user at once" }),
  })
  .openapi("UpdateUser");

export const UpdateMeBody = z.strictObject({ name: displayName({ max: 100 }) }).openapi("UpdateMe");

export const ChangePasswordBody = z
  .strictObject({
    currentPassword: z.string().min(1).max(256),
    newPassword: NewPassword,
  })
  .openapi("ChangePassword");

export const UserListQuery = z.object({
  email: z.string().trim().toLowerCase().max(254).optional().openapi({ description: "Exact address" }),
});
