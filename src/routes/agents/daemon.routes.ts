import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { DesiredState, DesiredStateQuery, ReportAck, ReportBody } from "./daemon.schemas";
import { asDaemon } from "./guards";

const tags = ["Agents"];

export const desired = createRoute({
  method: "get",
  path: "/agents/me/desired-state",
  tags,
  ...asDaemon,
  summary: "Config, routingIntent, Corefile and zone for every gateway node this daemon runs (ETag; If-None-Match → 304)",
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
