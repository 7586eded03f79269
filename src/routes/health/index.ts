import { createRoute, z } from "@hono/zod-openapi";
import { users } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { jsonResponse } from "../../lib/openapi";

const Status = z.object({ status: z.enum(["ok", "ready"]) }).openapi("HealthStatus");

const live = createRoute({
  method: "get", path: "/health", tags: ["Health"], summary: "Liveness: the Worker answers (no I/O)",
  responses: { 200: jsonResponse(Status, "Alive") },
});

const ready = createRoute({
  method: "get", path: "/health/ready", tags: ["Health"], summary: "Readiness: one single-row D1 read succeeds",
  responses: { 200: jsonResponse(Status, "Ready") },
});

/** Also the benchmark's baselines: a bare handler, and a handler costing exactly one D1 read. */
export const healthRouter = createRouter()
  .openapi(live, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(ready, async (c) => {
    await c.var.db.select({ id: users.id }).from(users).limit(1).get();
    return c.json({ status: "ready" as const }, 200);
  });
