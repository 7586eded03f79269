import { createRoute } from "@hono/zod-openapi";
import { errorResponseFor, errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AcceptInviteBody, CreateInviteBody, InviteAcceptedSchema, InviteParams, InviteSchema } from "./invites.schemas";

const tags = ["Invites"];

export const create = createRoute({
  method: "post",
  path: "/groups/{id}/invites",
  operationId: "createInvite",
  tags,
  summary: "Invite an email address with a role (owner, admin; only owners invite owners); the token is mailed",
  description:
    "Group owners and admins; only owners invite with the owner role. 409 when the address already belongs to a member. " +
    "Each invite sends a mail, so invites (re-invites too) are throttled per inviting account and per " +
    "client address (429 with Retry-After).",
  request: { params: IdParam("Group", "grp"), body: jsonBody(CreateInviteBody) },
  responses: {
    201: jsonResponse(InviteSchema, "Invited"),
    ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429),
    ...errorResponseFor(502, "The mail relay refused the message; the invite was revoked (code bad_gateway)"),
  },
});

export const list = createRoute({
  method: "get",
  path: "/groups/{id}/invites",
  operationId: "listInvites",
  tags,
  summary: "Invites of a group, every status (owner, admin)",
  description: "Group owners and admins: pending, accepted, revoked and expired invites (tokens are never shown).",
  request: { params: IdParam("Group", "grp"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(InviteSchema, "InvitePage"), "A page of invites"), ...errorResponses(401, 403, 404, 422) },
});

export const revoke = createRoute({
  method: "delete",
  path: "/groups/{id}/invites/{inviteId}",
  operationId: "revokeInvite",
  tags,
  summary: "Revoke a pending invite (owner, admin; only owners revoke owner invites)",
  description: "Group owners and admins; only owners revoke invites for the owner role. 409 when it was already accepted or revoked.",
  request: { params: InviteParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});

export const accept = createRoute({
  method: "post",
  path: "/auth/invites/accept",
  operationId: "acceptInvite",
  tags,
  summary: "Accept an invite: creates the account (with a password) or joins the existing one",
  description:
    "Public, or with the invited account's access token (userAuth); the invite token in the body is the credential. " +
    "No account for the invited email: `password` creates it and the answer carries a token pair. " +
    "An account exists: send its bearer token, or its `password` when it has no MFA. Tokens work once and expire. " +
    "Throttled per invited address and per client address.",
  request: { body: jsonBody(AcceptInviteBody) },
  responses: { 200: jsonResponse(InviteAcceptedSchema, "Joined the group"), ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429) },
});
