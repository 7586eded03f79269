import type { AppRouteHandler } from "../../lib/types";
import { checkDatabase } from "../../services/health/readiness";
import type * as routes from "./health.routes";

/** Also the benchmark's baselines: a bare handler, and a handler costing exactly one D1 read. */
export const live: AppRouteHandler<typeof routes.live> = (c) => c.json({ status: "ok" as const }, 200);

export const ready: AppRouteHandler<typeof routes.ready> = async (c) => {
  await checkDatabase(c.var.db);
  return c.json({ status: "ready" as const }, 200);
};
