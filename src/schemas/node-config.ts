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

/** Policy mode (docs/access.md): what may reach the node over the overlay; wgo loads it into nftables. */
const InboundRuleSchema = z
  .object({
    ports: z.array(z.string()).openapi({ description: '"*", "icmp", "tcp:443", "udp:5000-5100" ...' }),
    from: z.array(z.string()).openapi({ description: "Source host prefixes, in address order" }),
  })
  .openapi("InboundRule");

const ForwardRuleSchema = z
  .object({
    action: z.enum(["drop", "accept"]),
    from: z.array(z.string()).openapi({ description: "Source host prefixes" }),
    to: z.array(z.string()).openapi({ description: "The parts of routed destinations the rule names" }),
    ports: z.array(z.string()),
    rule: z.number().int().openapi({ description: "The policy's rule it comes from (its index), for counters" }),
  })
  .openapi("ForwardRule");

const InboundRulePatchSchema = z
  .object({
    ports: z.array(z.string()),
    from: z.array(z.string()).optional().openapi({ description: "The entry whole: its ports are new to the filter" }),
    fromAdded: z.array(z.string()).optional(),
    fromRemoved: z.array(z.string()).optional(),
  })
  .openapi("InboundRulePatch", {
    description:
      "One entry of the new inbound filter, in order: whole (from), or the held entry with the same ports with fromAdded added and fromRemoved removed, sources then sorted by address (neither: unchanged)",
  });

const filterFields = {
  accessRules: z.array(InboundRuleSchema).optional().openapi({ description: "Policy mode only: the node's inbound filter" }),
  forwardRules: z
    .array(ForwardRuleSchema)
    .optional()
    .openapi({ description: "Policy mode, gateways only: the forward filter of the routed destinations it is a hop for" }),
};

export const NodeConfigSchema = z
  .object({
    nodeId: z.string(),
    networkId: z.string(),
    routingRevision: z.number().int(),
    interface: InterfaceSchema,
    peers: z.array(PeerSchema),
    routingIntent: z.array(RoutingIntentSchema),
    forwarding: z.boolean().openapi({ description: "The node forwards for others (a gateway on some path): enable IP forwarding" }),
    ...filterFields,
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
    accessRules: z
      .array(InboundRuleSchema)
      .nullable()
      .optional()
      .openapi({ description: "Present when the inbound filter changed and is sent whole; null: the network left policy mode" }),
    accessRulesPatch: z
      .array(InboundRulePatchSchema)
      .optional()
      .openapi({ description: "Instead of accessRules when shorter: the filter's change entry by entry" }),
    forwardRules: z
      .array(ForwardRuleSchema)
      .nullable()
      .optional()
      .openapi({ description: "Present when the forward filter changed, whole; null: the network left policy mode" }),
  })
  .openapi("NodeConfigDelta", {
    description:
      "What changed in a node's config since fromRevision. Apply: drop peers named in peersRemoved or peersUpserted, add peersUpserted, order by address then nodeId, replace the parts present; the result equals the whole config at routingRevision.",
  });
