import { z } from "@hono/zod-openapi";
import { NodeName, NodeTags, Port, Roles } from "../../schemas/nodes";
import { Endpoint, PublicKey } from "../../wire/fields";

const gatewayNeedsInventory = (body: { roles?: string[]; gatewayId?: string | null }) =>
  !body.roles?.includes("gateway") || !!body.gatewayId;
/** Only a gateway node's agent can generate its key on the gateway; every other node brings its own. */
const keyUnlessGateway = (body: { roles?: string[]; gatewayId?: string | null; publicKey?: string }) =>
  body.publicKey !== undefined || (!!body.roles?.includes("gateway") && !!body.gatewayId);
const dnsOnlyOnGateways = (body: { roles?: string[]; servesDns?: boolean }) => !body.servesDns || !!body.roles?.includes("gateway");
const relayOnlyOnGateways = (body: { roles?: string[]; relay?: boolean }) => !body.relay || !!body.roles?.includes("gateway");
const Relay = z.boolean().openapi({
  description:
    "Gateway nodes only: carry traffic between pairs of nodes that find no direct path through NAT (docs/nat.md). A relay needs an endpoint, and forwards only inside its own network",
});
const ServesDns = z.boolean().openapi({ description: "Gateway nodes only: serve the network's zone on the node's overlay address" });
const GATEWAY_ROLE =
  '["gateway"] makes this a gateway node: it then needs gatewayId, and may leave publicKey out for its gateway daemon to register';
const GATEWAY_ID =
  'Required when roles contains "gateway": the inventory gateway (GET /gateways) the node runs on. To be a routing-policy hop, that gateway must also be eligible under the platform settings (status, region)';

export const CreateNodeBody = z
  .strictObject({
    networkId: z.string().min(1).max(64),
    name: NodeName,
    publicKey: PublicKey.optional().openapi({
      description: "Required, except for a gateway node (roles gateway, gatewayId set): omitted, it awaits its agent's key",
    }),
    address: z.string().max(64).optional().openapi({ description: "A free address of the network; allocated when omitted" }),
    endpoint: Endpoint.nullable().optional(),
    listenPort: Port.nullable().optional(),
    roles: Roles.default([]).openapi({ description: GATEWAY_ROLE }),
    gatewayId: z.string().min(1).max(64).nullable().optional().openapi({ description: GATEWAY_ID }),
    servesDns: ServesDns.default(false),
    relay: Relay.default(false),
    tags: NodeTags.optional(),
  })
  .refine(gatewayNeedsInventory, { message: "A gateway node names its inventory gateway", path: ["gatewayId"] })
  .refine(keyUnlessGateway, { message: "Required: only a gateway node may await its agent's key", path: ["publicKey"] })
  .refine(dnsOnlyOnGateways, { message: "Only a gateway node serves DNS", path: ["servesDns"] })
  .refine(relayOnlyOnGateways, { message: "Only a gateway node relays", path: ["relay"] })
  .openapi("CreateNode");

export const UpdateNodeBody = z
  .strictObject({
    name: NodeName.optional(),
    publicKey: PublicKey.optional(),
    address: z.string().max(64).optional(),
    endpoint: Endpoint.nullable().optional(),
    listenPort: Port.nullable().optional(),
    roles: Roles.optional().openapi({ description: GATEWAY_ROLE }),
    gatewayId: z.string().min(1).max(64).nullable().optional().openapi({ description: GATEWAY_ID }),
    servesDns: ServesDns.optional(),
    relay: Relay.optional(),
    tags: NodeTags.optional(),
  })
  .openapi("UpdateNode");

export const NodeListQuery = z.object({ networkId: z.string().max(64).optional() });
