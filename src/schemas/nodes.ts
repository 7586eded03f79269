/** The node vocabulary several route folders share (nodes, client, devices, agents). */
import { z } from "@hono/zod-openapi";
import { ROUTING_MODES, type nodes } from "../db/schema";
import { LIMITS } from "../lib/limits";
import { Timestamp } from "../lib/openapi";
import { TAG_PATTERN } from "../core/access-policy/selectors";
import { zoneOwnNameProblem } from "../core/dns";
import { publicKeyOrNull } from "../core/net/wireguard-key";

export const NodeName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(63)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "A DNS label: letters, digits and inner hyphens")
  // The zone's own hosts: a node there would replace the name server's address or the SOA contact.
  .superRefine((name, ctx) => {
    const reserved = zoneOwnNameProblem(name);
    if (reserved) ctx.addIssue({ code: "custom", message: reserved });
  })
  .openapi({ example: "laptop-ada", description: "Also the node's DNS name: <name>.<dnsDomain>" });

export const Port = z.number().int().min(1).max(65535);
export const Roles = z.array(z.enum(["gateway"])).max(1);

export const RoutingPreference = z
  .object({
    mode: z.enum(ROUTING_MODES).openapi({ description: "all policies, none, or only the listed ones" }),
    policyIds: z.array(z.string().min(1).max(64)).max(500),
  })
  .openapi("RoutingPreference");

export const NodeSchema = z
  .object({
    id: z.string().openapi({ example: "node_..." }),
    networkId: z.string(),
    name: z.string(),
    publicKey: z
      .string()
      .nullable()
      .openapi({ description: "null: a gateway node awaiting its agent's key (no node has it as a peer yet)" }),
    address: z.string(),
    endpoint: z.string().nullable(),
    listenPort: z.number().int().nullable(),
    roles: Roles,
    gatewayId: z.string().nullable(),
    servesDns: z.boolean().openapi({ description: "A gateway node that serves the network's zone on its overlay address" }),
    relay: z.boolean().openapi({ description: "A gateway node that carries pairs with no direct path between them (docs/nat.md)" }),
    tags: z
      .array(z.string())
      .openapi({ description: 'Access-policy tags ("tag:web"), set by the group\'s owners and admins (docs/access.md)' }),
    deviceId: z.string().nullable(),
    routing: z
      .union([RoutingPreference, z.null()])
      .openapi({ description: "Which policies apply to this node (a device's owner chooses); null when redacted" }),
    revision: z.number().int().openapi({ description: "Network routing revision at which the node last changed" }),
    lastSeenAt: Timestamp.nullable().openapi({ description: "The last heartbeat; null when redacted or never seen" }),
    redacted: z.boolean().openapi({
      description:
        "true: another member's device node. Shown is what every peer's config carries (name, address, public key, endpoint, roles); " +
        "its routing choice and last-seen time (null here), config, tunnels and place in the runtime status are for its owner, " +
        "the group's owners and admins, and platform admins",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Node");

/** `redacted`: the caller may not read this device node's detail (services/networks/device-node-privacy.ts). */
export const presentNode = (node: typeof nodes.$inferSelect, redacted = false): z.infer<typeof NodeSchema> => ({
  id: node.id,
  networkId: node.networkId,
  name: node.name,
  publicKey: publicKeyOrNull(node.publicKey),
  address: node.address,
  endpoint: node.endpoint,
  listenPort: node.listenPort,
  roles: node.isGateway ? ["gateway"] : [],
  gatewayId: node.gatewayId,
  servesDns: node.servesDns,
  relay: node.relay,
  tags: node.tags,
  deviceId: node.deviceId,
  routing: redacted ? null : { mode: node.routingMode, policyIds: node.routingPolicyIds },
  revision: node.revision,
  lastSeenAt: redacted ? null : node.lastSeenAt,
  redacted,
  createdAt: node.createdAt,
  updatedAt: node.updatedAt,
});

/** Access-policy tags of a node (docs/access.md): `tag:<name>`, each once, at most LIMITS.tagsPerNode. */
export const NodeTags = z
  .array(z.string().regex(TAG_PATTERN, "A tag is tag:<name>: lower-case letters, digits and inner hyphens, at most 63"))
  .max(LIMITS.tagsPerNode)
  .refine((tags) => new Set(tags).size === tags.length, { message: "Each tag once" })
  .openapi({ description: 'Access-policy tags, e.g. ["tag:web"]; owners and admins set them (docs/access.md)' });
