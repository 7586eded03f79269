import { z } from "@hono/zod-openapi";

export const Status = z.object({ status: z.enum(["ok", "ready"]) }).openapi("HealthStatus");
