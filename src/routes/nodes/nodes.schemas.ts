import { z } from "@hono/zod-openapi";
import { Endpoint, NodeName, Port, PublicKey, Roles } from "../../schemas/nodes";

const gatewayNeedsInventory = (body: { roles?: string[]; gatewayId?: string | null }) =>
  !body.roles?.includes("gateway") || !!body.gatewayId;

export const CreateNodeBody = z
  .strictObject({
    networkId: z.string().min(1).max(64),
    name: NodeName,
    publicKey: PublicKey,
    address: z.string().max(64).optional().openapi({ description: "A free address of the network; allocated when omitted" }),
    endpoint: Endpoint.nullable().optional(),
    listenPort: Port.nullable().optional(),
    roles: Roles.default([]),
    gatewayId: z.string().min(1).max(64).nullable().optional(),
  })
  .refine(gatewayNeedsInventory, { message: "A gateway node names its inventory gateway", path: ["gatewayId"] })
  .openapi("CreateNode");

export const UpdateNodeBody = z
  .strictObject({
    name: NodeName.optional(),
    publicKey: PublicKey.optional(),
    address: z.string().max(64).optional(),
    endpoint: Endpoint.nullable().optional(),
    listenPort: Port.nullable().optional(),
    roles: Roles.optional(),
    gatewayId: z.string().min(1).max(64).nullable().optional(),
  })
  .openapi("UpdateNode");

export const NodeListQuery = z.object({ networkId: z.string().max(64).optional() });
