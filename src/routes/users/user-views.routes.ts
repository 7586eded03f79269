import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonResponse, Timestamp } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { GroupRoleSchema } from "../../schemas/groups";

const tags = ["Users"];
const params = IdParam("User (or `me`)", "usr");

export const UserGroupSchema = z
  .object({
    groupId: z.string(),
    name: z.string(),
    role: GroupRoleSchema,
    createdAt: Timestamp.openapi({ description: "When the user joined" }),
  })
  .openapi("UserGroupMembership");

export const NetworkAccessSchema = z
  .object({
    networkId: z.string(),
    name: z.string(),
    cidr: z.string(),
    groupId: z.string(),
    groupName: z.string(),
    role: GroupRoleSchema.openapi({ description: "The role the user acts with on this network" }),
    via: z.enum(["membership", "platform_admin"]).openapi({ description: "platform_admin: every network, as owner" }),
  })
  .openapi("NetworkAccess");

export const groupsOfUser = createRoute({
  method: "get",
  path: "/users/{id}/groups",
  operationId: "listUserGroups",
  tags,
  summary: "The groups a user belongs to, with the role in each (platform admins; anyone for themselves)",
  description: "Platform admins for any user; everyone else only for themselves (`me` or their own id; others answer 404).",
  request: { params, query: PageQuery },
  responses: { 200: jsonResponse(pageOf(UserGroupSchema, "UserGroupPage"), "A page of memberships"), ...errorResponses(401, 404, 422) },
});

export const accessOfUser = createRoute({
  method: "get",
  path: "/users/{id}/access",
  operationId: "listUserNetworkAccess",
  tags,
  summary: "Every network the user can reach and the role it has there (platform admins; anyone for themselves)",
  description:
    "Platform admins for any user; everyone else only for themselves (others answer 404). " +
    "Through group memberships. A platform admin reaches every network as owner: all are listed with via=platform_admin.",
  request: { params, query: PageQuery },
  responses: {
    200: jsonResponse(pageOf(NetworkAccessSchema, "NetworkAccessPage"), "A page of networks"),
    ...errorResponses(401, 404, 422),
  },
});
