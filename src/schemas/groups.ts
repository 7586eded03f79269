import { z } from "@hono/zod-openapi";
import { GROUP_ROLES } from "../db/schema";

/** Shared by the groups, users and invites routes. */
export const GroupRoleSchema = z.enum(GROUP_ROLES).openapi({ description: "owner > admin > member > viewer" });
