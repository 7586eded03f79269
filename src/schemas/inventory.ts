import { z } from "@hono/zod-openapi";
import { GATEWAY_HEALTH, GATEWAY_STATUSES } from "../db/schema";
import { displayName } from "../lib/display-name";
import { hostProblem } from "../core/net/endpoint";
import { Timestamp } from "../lib/openapi";

/**
 * The gateway inventory's shapes, shared by the admins' inventory routes and the gateway-manager
 * agents' routes (which register and update the gateways of their region).
 */
export const InventoryName = displayName({ min: 1, max: 100 });

/** Only active gateways are eligible for new policy hops. */
export const GatewayStatus = z.enum(GATEWAY_STATUSES);

export const GatewayHealth = z.enum(GATEWAY_HEALTH);

export const GatewaySchema = z
  .object({
    id: z.string().openapi({ example: "gw_..." }),
    regionId: z.string(),
    name: z.string(),
    publicHost: z.string().nullable(),
    status: z.enum(GATEWAY_STATUSES).openapi({ description: "Only active gateways are eligible for new policy hops" }),
    capacity: z.number().int().nullable(),
    health: GatewayHealth.openapi({ description: "As the region's gateway-manager last reported" }),
    healthCheckedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Gateway");

export const PublicHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:-]+$/, "A host name or IP address")
  .superRefine((host, ctx) => {
    const problem = hostProblem(host);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const Capacity = z.number().int().min(0).max(1_000_000);

export const UpdateGatewayBody = z
  .strictObject({
    name: InventoryName.optional(),
    publicHost: PublicHost.nullable().optional(),
    status: z.enum(GATEWAY_STATUSES).optional(),
    capacity: Capacity.nullable().optional(),
  })
  .openapi("UpdateGateway");
