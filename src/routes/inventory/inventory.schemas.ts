import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { GATEWAY_STATUSES } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { hostProblem } from "../../services/networks/net/endpoint";

const Name = displayName({ min: 1, max: 100 });
const Description = displayName({ max: 500 });

export const RegionSchema = z.object({
  id: z.string().openapi({ example: "reg_..." }),
  name: z.string(),
  description: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi("Region");

export const CreateRegionBody = z.strictObject({ name: Name, description: Description.default("") }).openapi("CreateRegion");
export const UpdateRegionBody = z.strictObject({ name: Name.optional(), description: Description.optional() }).openapi("UpdateRegion");

export const GatewaySchema = z.object({
  id: z.string().openapi({ example: "gw_..." }),
  regionId: z.string(),
  name: z.string(),
  publicHost: z.string().nullable(),
  status: z.enum(GATEWAY_STATUSES).openapi({ description: "Only active gateways are eligible for new policy hops" }),
  capacity: z.number().int().nullable(),
  health: z.enum(["unknown", "healthy", "degraded", "down"]).openapi({ description: "As the region's gateway-manager last reported" }),
  healthCheckedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi("Gateway");

export const GatewayDetailSchema = GatewaySchema.extend({
  networks: z.array(z.object({ networkId: z.string(), nodeId: z.string() }))
    .openapi({ description: "Networks this gateway serves through a gateway node (only those the caller can see)" }),
}).openapi("GatewayDetail");

export const PublicHost = z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.:-]+$/, "A host name or IP address")
  .superRefine((host, ctx) => {
    const problem = hostProblem(host);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const CreateGatewayBody = z.strictObject({
  regionId: z.string().min(1).max(64),
  name: Name,
  publicHost: PublicHost.nullable().default(null),
  status: z.enum(GATEWAY_STATUSES).default("active"),
  capacity: z.number().int().min(0).max(1_000_000).nullable().default(null),
}).openapi("CreateGateway");

export const UpdateGatewayBody = z.strictObject({
  name: Name.optional(),
  publicHost: PublicHost.nullable().optional(),
  status: z.enum(GATEWAY_STATUSES).optional(),
  capacity: z.number().int().min(0).max(1_000_000).nullable().optional(),
}).openapi("UpdateGateway");

export const GatewayListQuery = z.object({
  regionId: z.string().max(64).optional(),
  status: z.enum(GATEWAY_STATUSES).optional(),
});
