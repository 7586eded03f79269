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
    address: z.string().openapi({
      description: "The peer's overlay address; peers are listed in its numeric order, then by nodeId",
      example: "10.20.0.7",
    }),
    publicKey: z.string(),
    endpoint: z.string().nullable(),
    allowedIps: z.array(z.string()),
    persistentKeepalive: z.number().int().nullable(),
  })
  .openapi("WireGuardPeer");

const InterfaceSchema = z.object({
  address: z.string().openapi({ example: "10.20.0.5/24" }),
  listenPort: z.number().int().nullable(),
  dns: z.array(z.string()).openapi({
    description: "The network's DNS servers: overlay addresses of its gateway nodes that serve the zone, lowest first, at most 3",
    example: ["10.20.0.1"],
  }),
  dnsSearch: z
    .array(z.string())
    .openapi({ description: "The network's DNS domain when dns names servers, else empty", example: ["corp.example"] }),
});

export const NodeConfigSchema = z
  .object({
    nodeId: z.string(),
    networkId: z.string(),
    routingRevision: z.number().int(),
    interface: InterfaceSchema,
    peers: z.array(PeerSchema),
    routingIntent: z.array(RoutingIntentSchema),
    forwarding: z.boolean().openapi({ description: "The node forwards for others (a gateway on some path): enable IP forwarding" }),
    wgQuick: z.string().openapi({ description: "wg-quick configuration; the client fills the PrivateKey line" }),
  })
  .openapi("NodeConfig");

export const ConfigDeltaSchema = z
  .object({
    nodeId: z.string(),
    networkId: z.string(),
    fromRevision: z.number().int().openapi({ description: "The revision the client said it holds" }),
    routingRevision: z.number().int().openapi({ description: "The revision the client holds once it applied this" }),
    interface: InterfaceSchema.optional().openapi({ description: "Present only when it changed" }),
    peersUpserted: z
      .array(PeerSchema)
      .openapi({ description: "Peers that are new or changed, each whole (a changed key: remove the old one)" }),
    peersRemoved: z.array(z.string()).openapi({ description: "Node ids of the peers that are gone" }),
    routingIntent: z.array(RoutingIntentSchema).optional().openapi({ description: "Present only when it changed; the whole new list" }),
    forwarding: z.boolean().optional().openapi({ description: "Present only when it changed" }),
  })
  .openapi("NodeConfigDelta", {
    description:
      "What changed in a node's config since fromRevision. Apply: drop peers named in peersRemoved or peersUpserted, add peersUpserted, order by address then nodeId, replace the parts present; the result equals the whole config at routingRevision.",
  });
