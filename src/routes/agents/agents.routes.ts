import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AgentListQuery, AgentSchema, EnrolmentTokenBody, EnrolmentTokenSchema } from "./agents.schemas";

const tags = ["Agents"];

export const createToken = createRoute({
  method: "post",
  path: "/agents/enrolment-tokens",
  operationId: "createAgentEnrolmentToken",
  tags,
  summary: "Issue a single-use agent enrolment token (platform admins)",
  description:
    "Platform admins only (403 otherwise). The token (aet_…) is shown only here; an agent trades it once for its credential (POST /agents/enrol). A gateway-manager token names a region; a gateway-daemon token names a gateway (400 when it does not exist).",
  request: { body: jsonBody(EnrolmentTokenBody) },
  responses: { 201: jsonResponse(EnrolmentTokenSchema, "Issued"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});
export const list = createRoute({
  method: "get",
  path: "/agents",
  operationId: "listAgents",
  tags,
  summary: "Gateway-manager and gateway-daemon agents (read-only inventory)",
  description: "Any signed-in user; read-only. Credentials are never shown.",
  request: { query: PageQuery.extend(AgentListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(AgentSchema, "AgentPage"), "A page of agents"), ...errorResponses(401, 422) },
});
export const get = createRoute({
  method: "get",
  path: "/agents/{id}",
  operationId: "getAgent",
  tags,
  summary: "One agent",
  description: "Any signed-in user; read-only.",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401, 404, 422) },
});
export const revoke = createRoute({
  method: "post",
  path: "/agents/{id}/revoke",
  operationId: "revokeAgent",
  tags,
  summary: "Revoke an agent's credential at once (platform admins)",
  description: "Platform admins only (403 otherwise). The agent's credential is refused from now on; enrol it again with a new token.",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "Revoked"), ...errorResponses(401, 403, 404, 422) },
});
