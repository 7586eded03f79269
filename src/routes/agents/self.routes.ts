import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { AgentCredentialSchema, AgentEnrolBody, AgentSchema, UpdateAgentBody } from "./agents.schemas";

const tags = ["Agents"];

export const enrol = createRoute({
  method: "post",
  path: "/agents/enrol",
  operationId: "enrolAgent",
  tags,
  summary: "An agent trades its enrolment token for its own credential",
  description:
    "Public: the single-use enrolment token (aet_…, POST /agents/enrolment-tokens) in the body is the credential. The answer carries the agent's credential (agentAuth), shown only here; 401 for an unknown, used or expired token.",
  request: { body: jsonBody(AgentEnrolBody) },
  responses: { 201: jsonResponse(AgentCredentialSchema, "Enrolled"), ...errorResponses(401, 413, 415, 422) },
});
export const me = createRoute({
  method: "get",
  path: "/agents/me",
  operationId: "getAgentSelf",
  tags,
  summary: "The calling agent",
  description: "Any agent (agentAuth), about itself.",
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401) },
});
export const update = createRoute({
  method: "patch",
  path: "/agents/me",
  operationId: "updateAgentSelf",
  tags,
  summary: "Report the agent's version",
  description: "Any agent (agentAuth), about itself.",
  request: { body: jsonBody(UpdateAgentBody) },
  responses: { 200: jsonResponse(AgentSchema, "Updated"), ...errorResponses(401, 413, 415, 422) },
});
export const rotate = createRoute({
  method: "post",
  path: "/agents/me/credential",
  operationId: "rotateAgentCredential",
  tags,
  summary: "Rotate the agent's credential: the new one is returned, the old one stops working at once",
  description: "Any agent (agentAuth). Store the new credential before using it: the old one is refused from the moment this answers.",
  responses: { 200: jsonResponse(AgentCredentialSchema, "Rotated"), ...errorResponses(401) },
});
