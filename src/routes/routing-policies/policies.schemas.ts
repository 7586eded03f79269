import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { ROUTING_POLICY_TYPES, type routingPolicies } from "../../db/schema";
import { LIMITS } from "../../lib/limits";
import { Timestamp } from "../../lib/openapi";
import { CidrString } from "../../schemas/cidr";

export const RoutingPolicySchema = z
  .object({
    id: z.string().openapi({ example: "rp_..." }),
    networkId: z.string(),
    name: z.string(),
    type: z.enum(ROUTING_POLICY_TYPES),
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
    type: z.enum(ROUTING_POLICY_TYPES).openapi({ description: "via_gateway: send destinationCidr through gatewayPath, in order" }),
    destinationCidr: CidrString,
    gatewayPath: z
      .array(z.string().min(1).max(64))
      .max(LIMITS.gatewayPathEntries)
      .openapi({ description: "Ordered gateway node ids: non-empty, no repeats, at most ROUTING_POLICY_MAX_HOPS (400 otherwise)" }),
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
