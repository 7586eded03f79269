import { z } from "@hono/zod-openapi";

export const RoutingIntentSchema = z
  .object({
    policyId: z.string(),
    name: z.string(),
    destinationCidr: z.string(),
    path: z.array(z.string()).openapi({ description: "The policy's full gateway path (node ids, in order)" }),
    role: z.enum(["source", "transit", "egress"]).openapi({ description: "This node's place on the path" }),
    previousHop: z.string().nullable().openapi({ description: "The hop traffic arrives from; null for the sources" }),
    nextHop: z.string().nullable().openapi({ description: "The node to send destinationCidr to; null at the egress" }),
  })
  .openapi("RoutingIntent");

export const PeerSchema = z
  .object({
    nodeId: z.string(),
    name: z.string(),
    publicKey: z.string(),
    endpoint: z.string().nullable(),
    allowedIps: z.array(z.string()),
    persistentKeepalive: z.number().int().nullable(),
  })
  .openapi("WireGuardPeer");

export const NodeConfigSchema = z
  .object({
    nodeId: z.string(),
    networkId: z.string(),
    routingRevision: z.number().int(),
    interface: z.object({
      address: z.string().openapi({ example: "10.20.0.5/24" }),
      listenPort: z.number().int().nullable(),
      dns: z.array(z.string()),
    }),
    peers: z.array(PeerSchema),
    routingIntent: z.array(RoutingIntentSchema),
    forwarding: z.boolean().openapi({ description: "The node forwards for others (a gateway on some path): enable IP forwarding" }),
    wgQuick: z.string().openapi({ description: "wg-quick configuration; the client fills the PrivateKey line" }),
  })
  .openapi("NodeConfig");
