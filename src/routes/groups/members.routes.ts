import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AddMemberBody, MemberParams, MemberSchema, UpdateMemberBody } from "./groups.schemas";

const tags = ["Groups"];

export const list = createRoute({
  method: "get",
  path: "/groups/{id}/members",
  tags,
  summary: "Members of a group and their roles",
  request: { params: IdParam("Group", "grp"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(MemberSchema, "GroupMemberPage"), "A page of members"), ...errorResponses(401, 404, 422) },
});

export const add = createRoute({
  method: "post",
  path: "/groups/{id}/members",
  tags,
  summary: "Add an existing user by id or email (owner, admin; only owners grant owner)",
  description:
    "Group managers add directly only users they already share a group with; others are invited " +
    "(`POST /groups/{id}/invites`). Platform admins add any account. Unknown and unshared users both answer 404.",
  request: { params: IdParam("Group", "grp"), body: jsonBody(AddMemberBody) },
  responses: { 201: jsonResponse(MemberSchema, "Added"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/groups/{id}/members/{userId}",
  tags,
  summary: "Change a member's role (owner, admin; only owners touch owners); the last owner stays",
  request: { params: MemberParams, body: jsonBody(UpdateMemberBody) },
  responses: { 200: jsonResponse(MemberSchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/groups/{id}/members/{userId}",
  tags,
  summary: "Remove a member (owner, admin) or leave (any member); the last owner stays",
  request: { params: MemberParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});
