import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { AgentCredentialSchema, AgentEnrolBody, AgentSchema, UpdateAgentBody } from "./agents.schemas";
import { asAgent } from "./guards";

const tags = ["Agents"];

export const enrol = createRoute({
  method: "post",
  path: "/agents/enrol",
  tags,
  summary: "An agent trades its enrolment token for its own credential",
  request: { body: jsonBody(AgentEnrolBody) },
  responses: { 201: jsonResponse(AgentCredentialSchema, "Enrolled"), ...errorResponses(401, 413, 415, 422) },
});
export const me = createRoute({
  method: "get",
  path: "/agents/me",
  tags,
  ...asAgent,
  summary: "The calling agent",
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401) },
});
export const update = createRoute({
  method: "patch",
  path: "/agents/me",
  tags,
  ...asAgent,
  summary: "Report the agent's version",
  request: { body: jsonBody(UpdateAgentBody) },
  responses: { 200: jsonResponse(AgentSchema, "Updated"), ...errorResponses(401, 413, 415, 422) },
});
export const rotate = createRoute({
  method: "post",
  path: "/agents/me/credential",
  tags,
  ...asAgent,
  summary: "Rotate the agent's credential: the new one is returned, the old one stops working at once",
  responses: { 200: jsonResponse(AgentCredentialSchema, "Rotated"), ...errorResponses(401) },
});
