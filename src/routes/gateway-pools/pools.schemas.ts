import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import { POOL_LIMITS } from "../../lib/limits";
import { UNHEALTHY_REASONS } from "../../core/pools/health";
import { lastFailoverOf, type MemberStatus, type PoolStatus } from "../../services/networks/views/gateway-pools";

export const MemberHealthSchema = z
  .object({
    reason: z.enum(UNHEALTHY_REASONS).nullable().openapi({
      description:
        "Why the member is unhealthy; null when healthy. stale report: no report for POOL_STALE_SECONDS; not forwarding: its prober reported the probe across it down (POOL_PROBE_DOWN_AFTER echoes lost in a row) while it carries traffic; unreachable: the same for a standby, whose probe is a ping to its own address; drained: an operator drained it",
    }),
    heldDownUntil: Timestamp.nullable().openapi({
      description:
        "Set while the member is held down after the pool failed away from it (POOL_HOLD_DOWN_SECONDS): it is chosen again before then only if no other member is healthy",
    }),
    lastSeenAt: Timestamp.nullable().openapi({ description: "The member's last agent report" }),
    probeFailStreak: z.number().int().openapi({ description: "Reports in a row in which the member's probe was down" }),
  })
  .openapi("GatewayPoolMemberHealth");

export const LastFailoverSchema = z
  .object({
    at: Timestamp,
    from: z.string(),
    to: z.string(),
    reason: z.string().openapi({ description: "unhealthy: stale report | not forwarding | unreachable | drained | preempted" }),
  })
  .nullable()
  .openapi("GatewayPoolFailover");

export const GatewayPoolSchema = z
  .object({
    id: z.string().openapi({ example: "gpl_..." }),
    networkId: z.string(),
    name: z.string(),
    preempt: z.boolean().openapi({ description: "A member preferred by priority takes traffic back once healthy again" }),
    members: z
      .array(
        z.object({
          nodeId: z.string(),
          priority: z.number().int().openapi({ description: "Lower is preferred" }),
          drained: z.boolean(),
          healthy: z.boolean(),
          health: MemberHealthSchema,
        }),
      )
      .openapi({ description: "In preference order (priority, then node id)" }),
    activeNodeId: z.string().openapi({ description: "The member carrying the traffic of every policy that names the pool" }),
    lastFailover: LastFailoverSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("GatewayPool");

const Members = z
  .array(
    z.strictObject({
      nodeId: z.string().min(1).max(64),
      priority: z.number().int().min(0).max(1000).openapi({ description: "Lower is preferred; ties go to the lower node id" }),
    }),
  )
  .min(1)
  .max(POOL_LIMITS.membersPerPool)
  .openapi({
    description: `1-${POOL_LIMITS.membersPerPool} gateway nodes of the network, each eligible as a hop (400 naming the member) and in no other pool (409)`,
  });

export const PoolBody = z
  .strictObject({
    name: displayName({ min: 1, max: 100 }),
    members: Members,
    preempt: z.boolean().default(false),
  })
  .openapi("GatewayPoolInput");

export const PoolChangesBody = z
  .strictObject({
    name: displayName({ min: 1, max: 100 }).optional(),
    members: Members.optional(),
    preempt: z.boolean().optional(),
  })
  .openapi("GatewayPoolChanges");

export const PoolListSchema = z.object({ items: z.array(GatewayPoolSchema) }).openapi("GatewayPoolList");

export const PoolMemberParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "gpl_..." }),
  nodeId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "nodeId", in: "path" } }),
});

const presentMember = (member: MemberStatus) => ({
  nodeId: member.nodeId,
  priority: member.priority,
  drained: member.drained,
  healthy: member.healthy,
  health: {
    reason: member.reason,
    heldDownUntil: member.heldDownUntil,
    lastSeenAt: member.lastSeenAt,
    probeFailStreak: member.probeFailStreak,
  },
});

export const presentPool = (pool: PoolStatus): z.infer<typeof GatewayPoolSchema> => ({
  id: pool.id,
  networkId: pool.networkId,
  name: pool.name,
  preempt: pool.preempt,
  members: pool.members.map(presentMember),
  activeNodeId: pool.activeNodeId,
  lastFailover: lastFailoverOf(pool),
  createdAt: pool.createdAt,
  updatedAt: pool.updatedAt,
});
