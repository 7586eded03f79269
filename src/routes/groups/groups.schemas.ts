import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { GroupRoleSchema, MembershipSourceSchema } from "../../schemas/groups";
import { Timestamp } from "../../lib/openapi";

export const GroupSchema = z
  .object({
    id: z.string().openapi({ example: "grp_..." }),
    name: z.string(),
    role: GroupRoleSchema.openapi({ description: "The caller's role in this group" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Group");

const GroupName = displayName({ min: 1, max: 100 });

export const CreateGroupBody = z.strictObject({ name: GroupName }).openapi("CreateGroup");
export const UpdateGroupBody = z.strictObject({ name: GroupName }).openapi("UpdateGroup");

export const MemberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    role: GroupRoleSchema,
    source: MembershipSourceSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("GroupMember");

export const AddMemberBody = z
  .strictObject({
    userId: z.string().min(1).max(64).optional(),
    email: z
      .email()
      .max(254)
      .transform((email) => email.trim().toLowerCase())
      .optional(),
    role: GroupRoleSchema,
  })
  .refine((body) => (body.userId === undefined) !== (body.email === undefined), {
    message: "Give exactly one of userId or email",
    path: ["userId"],
  })
  .openapi("AddGroupMember");

export const UpdateMemberBody = z.strictObject({ role: GroupRoleSchema }).openapi("UpdateGroupMember");

export const MemberParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
  userId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "userId", in: "path" } }),
});
