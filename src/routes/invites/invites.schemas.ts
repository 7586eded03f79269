import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import { type Invite, inviteStatus } from "../../services/identity/invites";
import { GroupRoleSchema } from "../../schemas/groups";
import { Email, UserSchema } from "../../schemas/users";

export const InviteSchema = z
  .object({
    id: z.string().openapi({ example: "inv_..." }),
    groupId: z.string(),
    email: z.string(),
    role: GroupRoleSchema,
    status: z.enum(["pending", "accepted", "revoked", "expired"]),
    invitedBy: z.string().nullable(),
    acceptedBy: z.string().nullable(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  })
  .openapi("Invite");

export const CreateInviteBody = z.strictObject({ email: Email, role: GroupRoleSchema }).openapi("CreateInvite");

export const AcceptInviteBody = z
  .strictObject({
    token: z.string().min(1).max(128),
    password: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .openapi({ description: "Creates the account when none uses the invited email; otherwise proves it is yours" }),
    name: displayName({ max: 100 }).optional(),
  })
  .openapi("AcceptInvite");

export const InviteAcceptedSchema = z
  .object({
    groupId: z.string(),
    role: GroupRoleSchema,
    user: UserSchema,
    accountCreated: z.boolean(),
    accessToken: z.string().optional().openapi({ description: "Only when the account was created: it is signed in" }),
    refreshToken: z.string().optional(),
    tokenType: z.literal("Bearer").optional(),
    expiresIn: z.number().int().optional(),
  })
  .openapi("InviteAccepted");

export const InviteParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
  inviteId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "inviteId", in: "path" } }),
});

export const presentInvite = (invite: Invite): z.infer<typeof InviteSchema> => ({
  id: invite.id,
  groupId: invite.groupId,
  email: invite.email,
  role: invite.role,
  status: inviteStatus(invite),
  invitedBy: invite.invitedBy,
  acceptedBy: invite.acceptedBy,
  createdAt: invite.createdAt,
  expiresAt: invite.expiresAt,
});
