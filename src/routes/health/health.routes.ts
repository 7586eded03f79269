import { createRoute } from "@hono/zod-openapi";
import { jsonResponse } from "../../lib/openapi";
import { Status } from "./health.schemas";

export const live = createRoute({
  method: "get",
  path: "/health",
  tags: ["Health"],
  summary: "Liveness: the Worker answers (no I/O)",
  responses: { 200: jsonResponse(Status, "Alive") },
});

export const ready = createRoute({
  method: "get",
  path: "/health/ready",
  tags: ["Health"],
  summary: "Readiness: one single-row D1 read succeeds",
  responses: { 200: jsonResponse(Status, "Ready") },
});
