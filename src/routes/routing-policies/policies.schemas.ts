import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import type { routingPolicies } from "../../db/schema";
import { RoutingPolicyType } from "../../schemas/routing-policy-type";
import { LIMITS } from "../../lib/limits";
import { Timestamp } from "../../lib/openapi";
import { CidrString } from "../../schemas/cidr";
import { UNHEALTHY_REASONS } from "../../core/pools/health";

export const RoutingPolicySchema = z
  .object({
    id: z.string().openapi({ example: "rp_..." }),
    networkId: z.string(),
    name: z.string(),
    type: RoutingPolicyType,
    destinationCidr: z.string(),
    gatewayPath: z.array(z.string()),
    revision: z.number().int().openapi({ description: "Network routing revision at which the policy last changed" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("RoutingPolicy");

export const PolicyBody = z
  .strictObject({
    name: displayName({ min: 1, max: 100 }),
    type: RoutingPolicyType.openapi({ description: "via_gateway: send destinationCidr through gatewayPath, in order" }),
    destinationCidr: CidrString,
    gatewayPath: z.array(z.string().min(1).max(64)).max(LIMITS.gatewayPathEntries).openapi({
      description:
        "Ordered hops: each a gateway node id or a gateway pool id (gpl_…, a hop with failover). Non-empty, no repeats, at most ROUTING_POLICY_MAX_HOPS hops (pools count as one), a pool's members named only through their pool (400 otherwise)",
    }),
  })
  .openapi("RoutingPolicyInput");

export const presentPolicy = (policy: typeof routingPolicies.$inferSelect): z.infer<typeof RoutingPolicySchema> => ({
  id: policy.id,
  networkId: policy.networkId,
  name: policy.name,
  type: policy.type,
  destinationCidr: policy.destinationCidr,
  gatewayPath: policy.gatewayPath,
  revision: policy.revision,
  createdAt: policy.createdAt,
  updatedAt: policy.updatedAt,
});

export const PolicyStatusSchema = z
  .object({
    policyId: z.string(),
    hops: z.array(
      z.object({
        index: z.number().int(),
        poolId: z.string().nullable().openapi({ description: "The pool this hop names; null for a plain gateway node (a pool of one)" }),
        activeNodeId: z.string().openapi({ description: "The node carrying this hop's traffic now" }),
        healthy: z.boolean().openapi({
          description: "Whether the active node is healthy; false with no healthy member to fail over to (the active one is kept)",
        }),
        members: z.array(
          z.object({
            nodeId: z.string(),
            priority: z.number().int(),
            drained: z.boolean(),
            healthy: z.boolean(),
            reason: z.enum(UNHEALTHY_REASONS).nullable(),
            heldDownUntil: Timestamp.nullable(),
            lastSeenAt: Timestamp.nullable(),
            probeFailStreak: z.number().int(),
          }),
        ),
        lastFailover: z
          .object({ at: Timestamp, from: z.string(), to: z.string(), reason: z.string() })
          .nullable()
          .openapi({ description: "unhealthy: stale report | not forwarding | unreachable | drained | preempted" }),
      }),
    ),
    routingRevision: z.number().int().openapi({ description: "The network's routing revision the active members belong to" }),
  })
  .openapi("RoutingPolicyStatus");
