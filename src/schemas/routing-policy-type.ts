import { z } from "@hono/zod-openapi";
import { ROUTING_POLICY_TYPES } from "../db/schema";

/** A routing policy's `type`: the values its column holds (routes take it from here, not from db). */
export const RoutingPolicyType = z.enum(ROUTING_POLICY_TYPES);
