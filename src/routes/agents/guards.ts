import type { MiddlewareHandler } from "hono";
import { SECURITY } from "../../lib/openapi";
import type { AppEnv } from "../../lib/types";
import { agentOfKind, requireAgent } from "../../middleware/agent-auth";

/** Spread into createRoute: the caller authenticates with its agent credential (of one kind). */
export const asAgent = { middleware: [requireAgent] as MiddlewareHandler<AppEnv>[], security: SECURITY.agent };
export const asManager = {
  middleware: [requireAgent, agentOfKind("gateway-manager")] as MiddlewareHandler<AppEnv>[],
  security: SECURITY.agent,
};
export const asDaemon = {
  middleware: [requireAgent, agentOfKind("gateway-daemon")] as MiddlewareHandler<AppEnv>[],
  security: SECURITY.agent,
};
