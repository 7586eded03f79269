import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import { Capacity, GatewaySchema, GatewayStatus, InventoryName, PublicHost } from "../../schemas/inventory";

const Description = displayName({ max: 500 });

export const RegionSchema = z
  .object({
    id: z.string().openapi({ example: "reg_..." }),
    name: z.string(),
    description: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Region");

export const CreateRegionBody = z.strictObject({ name: InventoryName, description: Description.default("") }).openapi("CreateRegion");
export const UpdateRegionBody = z
  .strictObject({ name: InventoryName.optional(), description: Description.optional() })
  .openapi("UpdateRegion");

export const GatewayDetailSchema = GatewaySchema.extend({
  networks: z
    .array(z.object({ networkId: z.string(), nodeId: z.string() }))
    .openapi({ description: "Networks this gateway serves through a gateway node (only those the caller can see)" }),
}).openapi("GatewayDetail");

export const CreateGatewayBody = z
  .strictObject({
    regionId: z.string().min(1).max(64),
    name: InventoryName,
    publicHost: PublicHost.nullable().default(null),
    status: GatewayStatus.default("active"),
    capacity: Capacity.nullable().default(null),
  })
  .openapi("CreateGateway");

export const GatewayListQuery = z.object({
  regionId: z.string().max(64).optional(),
  status: GatewayStatus.optional(),
});
