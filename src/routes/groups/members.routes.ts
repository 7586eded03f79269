import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AddMemberBody, MemberParams, MemberSchema, UpdateMemberBody } from "./groups.schemas";

const tags = ["Groups"];

export const list = createRoute({
  method: "get",
  path: "/groups/{id}/members",
  operationId: "listGroupMembers",
  tags,
  summary: "Members of a group and their roles",
  description: "Any member of the group (viewer and up) and platform admins.",
  request: { params: IdParam("Group", "grp"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(MemberSchema, "GroupMemberPage"), "A page of members"), ...errorResponses(401, 404, 422) },
});

export const add = createRoute({
  method: "post",
  path: "/groups/{id}/members",
  operationId: "addGroupMember",
  tags,
  summary: "Add an existing user by id or email (owner, admin; only owners grant owner)",
  description:
    "Group owners and admins; only owners grant the owner role. A user already in the group: 409. " +
    "Group managers add directly only users they already share a group with; others are invited " +
    "(`POST /groups/{id}/invites`). Platform admins add any account. Unknown and unshared users both answer 404.",
  request: { params: IdParam("Group", "grp"), body: jsonBody(AddMemberBody) },
  responses: { 201: jsonResponse(MemberSchema, "Added"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/groups/{id}/members/{userId}",
  operationId: "updateGroupMember",
  tags,
  summary: "Change a member's role (owner, admin; only owners touch owners); the last owner stays",
  description:
    "Group owners and admins; only owners change an owner's role or grant owner. The group always keeps at least one owner (409).",
  request: { params: MemberParams, body: jsonBody(UpdateMemberBody) },
  responses: { 200: jsonResponse(MemberSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/groups/{id}/members/{userId}",
  operationId: "removeGroupMember",
  tags,
  summary: "Remove a member (owner, admin) or leave (any member); the last owner stays",
  description:
    "Group owners and admins remove members (only owners remove owners); any member may remove themselves (leave). The last owner cannot leave or be removed (409).",
  request: { params: MemberParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});
