import { createRoute } from "@hono/zod-openapi";
import { jsonResponse } from "../../lib/openapi";
import { Status } from "./health.schemas";

export const live = createRoute({
  method: "get",
  path: "/health",
  operationId: "getLiveness",
  tags: ["Health"],
  summary: "Liveness: the Worker answers (no I/O)",
  description: "Public. Answers 200 while the Worker runs; touches no storage.",
  responses: { 200: jsonResponse(Status, "Alive") },
});

export const ready = createRoute({
  method: "get",
  path: "/health/ready",
  operationId: "getReadiness",
  tags: ["Health"],
  summary: "Readiness: one single-row D1 read succeeds",
  description: "Public. Answers 200 once a single-row D1 read succeeds; a failing read answers 500 (internal).",
  responses: { 200: jsonResponse(Status, "Ready") },
});
