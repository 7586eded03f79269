import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { HEADER_REFS, IfNoneMatchHeader, notModified } from "../../lib/openapi-headers";
import { NodeSchema } from "../../schemas/nodes";
import { ReportAck, ReportBody } from "../../wire/agent-report";
import { AgentNodeBody, AgentNodeParams, DesiredState, DesiredStateQuery } from "./daemon.schemas";

const tags = ["Agents"];

export const desired = createRoute({
  method: "get",
  path: "/agents/me/desired-state",
  operationId: "getGatewayDesiredState",
  tags,
  summary: "Config, routingIntent, Corefile and zone for every gateway node this daemon runs (ETag; If-None-Match → 304)",
  description:
    "Gateway-daemon agents only (agentAuth; a manager gets 403), for the gateway they run on. " +
    "Each node entry also carries the node's overlay address, the public key the server holds for it (null until the daemon registers one) and servesDns. With If-None-Match and `wait`, a poll whose state is current waits up to `wait` seconds for a change (200) before answering 304.",
  request: { query: DesiredStateQuery, headers: IfNoneMatchHeader },
  responses: {
    200: { ...jsonResponse(DesiredState, "Desired state"), headers: { ETag: HEADER_REFS.etag } },
    304: notModified,
    ...errorResponses(400, 401, 403, 422, 503),
  },
});
export const report = createRoute({
  method: "post",
  path: "/agents/me/report",
  operationId: "reportGatewayState",
  tags,
  summary: "Report applied routing/DNS revisions and tunnel counters of the gateway's nodes",
  description:
    "Gateway-daemon agents only (agentAuth; a manager gets 403). Per gateway node it runs: the routing and DNS revisions applied and the tunnels' counters; what runtime-status, GET /tunnels and pool health read. Nodes that are not the gateway's answer 404.",
  request: { body: jsonBody(ReportBody) },
  responses: { 200: jsonResponse(ReportAck, "Acknowledged"), ...errorResponses(400, 401, 403, 404, 413, 415, 422, 503) },
});
export const putNode = createRoute({
  method: "put",
  path: "/agents/me/nodes/{nodeId}",
  operationId: "registerGatewayNodeKey",
  tags,
  summary: "Register the WireGuard public key of a gateway node this daemon runs, and whether it serves DNS",
  description:
    "Gateway-daemon agents only (agentAuth; a manager gets 403). " +
    "The daemon generates the node's key pair on the gateway and sends only the public half, so nobody copies keys by hand. " +
    "The node must be a gateway node of the daemon's gateway (else 404). A key another node of the network holds: 409. " +
    "Sending what the server already holds changes nothing (no revision, no audit row); a change bumps the network's routing " +
    "revision (the node appears as a peer, or with its new key, in every config it belongs to) and is audited with the agent as actor.",
  request: { params: AgentNodeParams, body: jsonBody(AgentNodeBody) },
  responses: { 200: jsonResponse(NodeSchema, "The node"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});
