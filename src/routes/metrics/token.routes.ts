import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonResponse, noContent } from "../../lib/openapi";
import { IssuedMetricsToken, MetricsTokenView } from "./metrics.schemas";

const tags = ["Metrics"];

export const issue = createRoute({
  method: "post",
  path: "/admin/metrics-token",
  operationId: "createMetricsToken",
  tags,
  summary: "Issue (or rotate) the metrics token (platform admins)",
  description:
    "A new bearer for GET /metrics, answered once. The live token, if any, is revoked in the same write, so issuing " +
    "again is how the token is rotated. Audited as metrics-token.issued.",
  responses: { 201: jsonResponse(IssuedMetricsToken, "The new token, shown once"), ...errorResponses(401, 403) },
});

export const show = createRoute({
  method: "get",
  path: "/admin/metrics-token",
  operationId: "getMetricsToken",
  tags,
  summary: "The live metrics token's id and age (platform admins)",
  description: "Never the secret: only its hash is stored. 404 when no token is live.",
  responses: { 200: jsonResponse(MetricsTokenView, "The live token"), ...errorResponses(401, 403, 404) },
});

export const revoke = createRoute({
  method: "delete",
  path: "/admin/metrics-token",
  operationId: "revokeMetricsToken",
  tags,
  summary: "Revoke the metrics token (platform admins)",
  description: "Scrapes with it are refused (401) at once. Audited as metrics-token.revoked. 404 when no token is live.",
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});
