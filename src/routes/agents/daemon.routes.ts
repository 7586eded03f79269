import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { NodeSchema } from "../../schemas/nodes";
import { AgentNodeBody, AgentNodeParams, DesiredState, DesiredStateQuery, ReportAck, ReportBody } from "./daemon.schemas";
import { asDaemon } from "./guards";

const tags = ["Agents"];

export const desired = createRoute({
  method: "get",
  path: "/agents/me/desired-state",
  tags,
  ...asDaemon,
  summary: "Config, routingIntent, Corefile and zone for every gateway node this daemon runs (ETag; If-None-Match → 304)",
  description:
    "Each node entry also carries the node's overlay address, the public key the server holds for it (null until the daemon registers one) and servesDns. With If-None-Match and `wait`, a poll whose state is current waits up to `wait` seconds for a change (200) before answering 304.",
  request: { query: DesiredStateQuery },
  responses: { 200: jsonResponse(DesiredState, "Desired state"), 304: { description: "Unchanged" }, ...errorResponses(400, 401, 403) },
});
export const report = createRoute({
  method: "post",
  path: "/agents/me/report",
  tags,
  ...asDaemon,
  summary: "Report applied routing/DNS revisions and tunnel counters of the gateway's nodes",
  request: { body: jsonBody(ReportBody) },
  responses: { 200: jsonResponse(ReportAck, "Acknowledged"), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
});
export const putNode = createRoute({
  method: "put",
  path: "/agents/me/nodes/{nodeId}",
  tags,
  ...asDaemon,
  summary: "Register the WireGuard public key of a gateway node this daemon runs, and whether it serves DNS",
  description:
    "The daemon generates the node's key pair on the gateway and sends only the public half, so nobody copies keys by hand. " +
    "The node must be a gateway node of the daemon's gateway (else 404). A key another node of the network holds: 409. " +
    "Sending what the server already holds changes nothing (no revision, no audit row); a change bumps the network's routing " +
    "revision (the node appears as a peer, or with its new key, in every config it belongs to) and is audited with the agent as actor.",
  request: { params: AgentNodeParams, body: jsonBody(AgentNodeBody) },
  responses: { 200: jsonResponse(NodeSchema, "The node"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});
