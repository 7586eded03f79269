import { z } from "@hono/zod-openapi";
import { GROUP_ROLES, MEMBERSHIP_SOURCES } from "../db/schema";

/** Shared by the groups, users and invites routes. */
export const GroupRoleSchema = z.enum(GROUP_ROLES).openapi({ description: "owner > admin > member > viewer" });

export const MembershipSourceSchema = z.enum(MEMBERSHIP_SOURCES).openapi({
  description:
    "manual: added by a person, who may change or remove it; idp: given by an IdP group mapping and changed only by the directory, until a person changes its role",
});
