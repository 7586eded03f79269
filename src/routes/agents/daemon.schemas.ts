import { z } from "@hono/zod-openapi";
import { ConfigDeltaSchema, NodeConfigSchema } from "../../schemas/node-config";
import { PublicKey } from "../../wire/fields";

/** A long poll may hold its request this long; the daemon's own HTTP timeout must be longer. */
export const MAX_WAIT_SECONDS = 60;

const HELD_ENTRY = "[A-Za-z0-9_-]{1,64}:\\d{1,9}:\\d{1,9}";

export const DesiredStateQuery = z.object({
  held: z
    .string()
    .max(16_000)
    .regex(new RegExp(`^${HELD_ENTRY}(,${HELD_ENTRY})*$`), "a comma-separated list of nodeId:routingRevision:dnsRevision")
    .optional()
    .openapi({
      description:
        "What the daemon holds, as nodeId:routingRevision:dnsRevision entries separated by commas. A node it holds gets a delta instead of its whole config where the server can compute one, and no Corefile or zone when its DNS revision is current.",
      example: "node_01J9Z6:41:7",
    }),
  wait: z.coerce.number().int().min(0).max(MAX_WAIT_SECONDS).default(0).openapi({
    description:
      "Long poll, in seconds (0-60, default 0). With If-None-Match naming the current state, the answer waits until the state changes (200 with the new state) or the time is up (304). A routing change (a failover, a path change) answers at once; other changes within about a second.",
    example: 30,
  }),
});

/** The held list as a map; a node named twice keeps its last entry. */
export const parseHeld = (text: string | undefined) =>
  new Map(
    (text ? text.split(",") : []).map((entry) => {
      const [nodeId, routing, dns] = entry.split(":");
      return [nodeId!, { routing: Number(routing), dns: Number(dns) }] as const;
    }),
  );

export const DesiredState = z
  .object({
    gatewayId: z.string(),
    probeRules: z
      .object({
        intervalMs: z
          .number()
          .int()
          .openapi({ description: "Send each probe's echo request this often (POOL_PROBE_INTERVAL_MS)", example: 250 }),
        downAfter: z
          .number()
          .int()
          .openapi({ description: "Echoes lost in a row that turn a probe down (POOL_PROBE_DOWN_AFTER)", example: 4 }),
        upAfter: z
          .number()
          .int()
          .openapi({ description: "Echoes answered in a row that turn it up again (POOL_PROBE_UP_AFTER)", example: 4 }),
      })
      .openapi({
        description:
          "How the agent runs the probes below: continuously, judged with this hysteresis, and reported at once when a probe turns down or up (docs/routing.md, Health)",
      }),
    nodes: z.array(
      z.object({
        networkId: z.string(),
        nodeId: z.string(),
        address: z.string().openapi({ description: "The node's overlay address (no prefix)", example: "10.20.0.1" }),
        publicKey: z.string().nullable().openapi({
          description: "The key the server holds for the node; null until the daemon registers one (PUT /agents/me/nodes/{nodeId})",
        }),
        servesDns: z.boolean().openapi({ description: "Whether the server holds the node as serving the network's zone" }),
        probes: z
          .array(
            z.object({
              target: z.string().openapi({ description: "An overlay address to ping", example: "10.20.0.7" }),
              acrossNodeId: z.string().openapi({
                description:
                  "The pool member judged: the route to target goes through it (its active member), or target is its own address (a standby, or a member with no hop after it to probe across)",
              }),
            }),
          )
          .openapi({
            description:
              "Probes this node's agent runs (gateway pools, docs/routing.md): ping each target continuously (probeRules) and report each one's state (POST /agents/me/report, probes). Empty when the node is beside no pool hop.",
          }),
        config: NodeConfigSchema.optional().openapi({ description: "The whole config; absent when a delta is sent instead" }),
        delta: ConfigDeltaSchema.optional().openapi({ description: "What changed since the routing revision the daemon holds" }),
        dns: z.object({
          domain: z.string(),
          revision: z.number().int(),
          corefile: z.string().optional().openapi({ description: "Absent when the daemon holds this DNS revision" }),
          zonefile: z.string().optional().openapi({ description: "Absent when the daemon holds this DNS revision" }),
        }),
      }),
    ),
  })
  .openapi("GatewayDesiredState");

export const AgentNodeParams = z.object({
  nodeId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "nodeId", in: "path" } }),
});

export const AgentNodeBody = z
  .strictObject({
    publicKey: PublicKey.openapi({ description: "The public half of the key pair the daemon generated on the gateway" }),
    servesDns: z.boolean().openapi({ description: "The daemon serves the network's zone on the node's overlay address" }),
  })
  .openapi("GatewayAgentNodeState");
