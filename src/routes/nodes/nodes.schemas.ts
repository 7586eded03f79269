import { z } from "@hono/zod-openapi";
import { ROUTING_MODES, type nodes } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { zoneOwnNameProblem } from "../../services/networks/dns";
import { Endpoint, PublicKey } from "../../lib/schemas/wireguard";

export const NodeName = z.string().trim().toLowerCase().min(1).max(63)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "A DNS label: letters, digits and inner hyphens")
  // The zone's own hosts: a node there would replace the name server's address or the SOA contact.
  .superRefine((name, ctx) => {
    const reserved = zoneOwnNameProblem(name);
    if (reserved) ctx.addIssue({ code: "custom", message: reserved });
  })
  .openapi({ example: "laptop-ada", description: "Also the node's DNS name: <name>.<dnsDomain>" });

const Port = z.number().int().min(1).max(65535);
const Roles = z.array(z.enum(["gateway"])).max(1);

export const RoutingPreference = z.object({
  mode: z.enum(ROUTING_MODES).openapi({ description: "all policies, none, or only the listed ones" }),
  policyIds: z.array(z.string().min(1).max(64)).max(500),
}).openapi("RoutingPreference");

export const NodeSchema = z.object({
  id: z.string().openapi({ example: "node_..." }),
  networkId: z.string(),
  name: z.string(),
  publicKey: z.string(),
  address: z.string(),
  endpoint: z.string().nullable(),
  listenPort: z.number().int().nullable(),
  roles: Roles,
  gatewayId: z.string().nullable(),
  deviceId: z.string().nullable(),
  routing: RoutingPreference,
  revision: z.number().int().openapi({ description: "Network routing revision at which the node last changed" }),
  lastSeenAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi("Node");

const gatewayNeedsInventory = (body: { roles?: string[]; gatewayId?: string | null }) =>
  !body.roles?.includes("gateway") || !!body.gatewayId;

export const CreateNodeBody = z.strictObject({
  networkId: z.string().min(1).max(64),
  name: NodeName,
  publicKey: PublicKey,
  address: z.string().max(64).optional().openapi({ description: "A free address of the network; allocated when omitted" }),
  endpoint: Endpoint.nullable().optional(),
  listenPort: Port.nullable().optional(),
  roles: Roles.default([]),
  gatewayId: z.string().min(1).max(64).nullable().optional(),
}).refine(gatewayNeedsInventory, { message: "A gateway node names its inventory gateway", path: ["gatewayId"] })
  .openapi("CreateNode");

export const UpdateNodeBody = z.strictObject({
  name: NodeName.optional(),
  publicKey: PublicKey.optional(),
  address: z.string().max(64).optional(),
  endpoint: Endpoint.nullable().optional(),
  listenPort: Port.nullable().optional(),
  roles: Roles.optional(),
  gatewayId: z.string().min(1).max(64).nullable().optional(),
}).openapi("UpdateNode");

export const NodeListQuery = z.object({ networkId: z.string().max(64).optional() });

export const presentNode = (node: typeof nodes.$inferSelect): z.infer<typeof NodeSchema> => ({
  id: node.id, networkId: node.networkId, name: node.name, publicKey: node.publicKey, address: node.address,
  endpoint: node.endpoint, listenPort: node.listenPort, roles: node.isGateway ? ["gateway"] : [], gatewayId: node.gatewayId,
  deviceId: node.deviceId, routing: { mode: node.routingMode, policyIds: node.routingPolicyIds }, revision: node.revision,
  lastSeenAt: node.lastSeenAt, createdAt: node.createdAt, updatedAt: node.updatedAt,
});
