import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent, SECURITY } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AcceptInviteBody, CreateInviteBody, InviteAcceptedSchema, InviteParams, InviteSchema } from "./invites.schemas";

const tags = ["Invites"];

export const create = createRoute({
  method: "post",
  path: "/groups/{id}/invites",
  tags,
  ...signedIn,
  summary: "Invite an email address with a role (owner, admin; only owners invite owners); the token is mailed",
  description:
    "Each invite sends a mail, so invites (re-invites too) are throttled per inviting account and per " +
    "client address (429 with Retry-After).",
  request: { params: IdParam("Group", "grp"), body: jsonBody(CreateInviteBody) },
  responses: {
    201: jsonResponse(InviteSchema, "Invited"),
    ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429),
    502: { description: "The mail relay refused the message; the invite was revoked (code bad_gateway)" },
  },
});

export const list = createRoute({
  method: "get",
  path: "/groups/{id}/invites",
  tags,
  ...signedIn,
  summary: "Invites of a group, every status (owner, admin)",
  request: { params: IdParam("Group", "grp"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(InviteSchema, "InvitePage"), "A page of invites"), ...errorResponses(401, 403, 404, 422) },
});

export const revoke = createRoute({
  method: "delete",
  path: "/groups/{id}/invites/{inviteId}",
  tags,
  ...signedIn,
  summary: "Revoke a pending invite (owner, admin; only owners revoke owner invites)",
  request: { params: InviteParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});

export const accept = createRoute({
  method: "post",
  path: "/auth/invites/accept",
  tags,
  summary: "Accept an invite: creates the account (with a password) or joins the existing one",
  description:
    "No account for the invited email: `password` creates it and the answer carries a token pair. " +
    "An account exists: send its bearer token, or its `password` when it has no MFA. Tokens work once and expire. " +
    "Throttled per invited address and per client address.",
  request: { body: jsonBody(AcceptInviteBody) },
  security: SECURITY.optionalUser,
  responses: { 200: jsonResponse(InviteAcceptedSchema, "Joined the group"), ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429) },
});
