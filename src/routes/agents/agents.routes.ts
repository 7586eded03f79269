import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { signedIn } from "../../middleware/auth";
import { AgentListQuery, AgentSchema, EnrolmentTokenBody, EnrolmentTokenSchema } from "./agents.schemas";

const tags = ["Agents"];

export const createToken = createRoute({
  method: "post",
  path: "/agents/enrolment-tokens",
  tags,
  ...signedIn,
  summary: "Issue a single-use agent enrolment token (platform admins)",
  request: { body: jsonBody(EnrolmentTokenBody) },
  responses: { 201: jsonResponse(EnrolmentTokenSchema, "Issued"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});
export const list = createRoute({
  method: "get",
  path: "/agents",
  tags,
  ...signedIn,
  summary: "Gateway-manager and gateway-daemon agents (read-only inventory)",
  request: { query: PageQuery.extend(AgentListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(AgentSchema, "AgentPage"), "A page of agents"), ...errorResponses(401, 422) },
});
export const get = createRoute({
  method: "get",
  path: "/agents/{id}",
  tags,
  ...signedIn,
  summary: "One agent",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401, 404) },
});
export const revoke = createRoute({
  method: "post",
  path: "/agents/{id}/revoke",
  tags,
  ...signedIn,
  summary: "Revoke an agent's credential at once (platform admins)",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "Revoked"), ...errorResponses(401, 403, 404) },
});
