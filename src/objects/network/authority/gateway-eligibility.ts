import { and, eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { gatewayAssignments, users } from "../../../db/schema";
import { domainError } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { auditStatement } from "../../../services/audit/audit-trail";
import { gatewayAssignedToGroup, gatewaysAssignedToGroup, isPlatformAdmin } from "../../../services/live-authority";
import { type Conditional, commit, type WriterContext } from "../commit";
import type { HeldNetwork } from "../memory/held-network";

/**
 * Which inventory gateways a network's gateway nodes may run on: those assigned to the network's group,
 * directly or through their region (gateway_assignments; docs/identity.md, "Gateway assignment"). The
 * writer checks it before a write and the write's batch checks it again (services/live-authority.ts), so an
 * assignment withdrawn between the two cannot let a node onto the gateway.
 */

/** The 400 for a node placed on a gateway its group may not use. */
export const placementRefused = (gatewayId: string) =>
  domainError(
    `gatewayId ${gatewayId}: gateway ${gatewayId} is not assigned to this network's group; a platform admin assigns gateways to groups`,
  );

export async function gatewayAssigned(db: Db, groupId: string, gatewayId: string): Promise<boolean> {
  const row = await db.get<{ assigned: number }>(sql`select ${gatewayAssignedToGroup(groupId, gatewayId)} as assigned`);
  return !!row?.assigned;
}

/** The caller's user id when it is a platform admin (not disabled): the one who may assign on the way. */
async function platformAdminActor(ctx: WriterContext): Promise<string | null> {
  const actor = ctx.audit?.actor;
  if (actor?.type !== "user" || !actor.id) return null;
  const user = await ctx.db
    .select({ role: users.platformRole, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, actor.id))
    .get();
  return user?.role === "admin" && !user.disabledAt ? actor.id : null;
}

/** What putting a gateway node on a gateway adds to the write's batch. */
export interface GatewayPlacement {
  /** To run before the node's own statement: a platform admin's assignment on the way, with its audit row. */
  before: BatchItem<"sqlite">[];
  /** Holds inside the batch (after `before`) exactly when the gateway is assigned to the group. */
  onlyIf: SQL;
}

/**
 * A gateway node may go onto `gatewayId` only if the gateway is assigned to the group. A platform admin is
 * who assigns, so a platform admin placing one assigns the gateway to the group in the same batch (audited
 * as gateway-assignment.created); anyone else gets the 400 naming the gateway.
 */
export async function placeOnGateway(ctx: WriterContext, groupId: string, gatewayId: string): Promise<GatewayPlacement> {
  const onlyIf = gatewayAssignedToGroup(groupId, gatewayId);
  if (await gatewayAssigned(ctx.db, groupId, gatewayId)) return { before: [], onlyIf };
  const adminId = await platformAdminActor(ctx);
  if (!adminId || !ctx.audit) throw placementRefused(gatewayId);
  const row = { id: newId("gwa"), groupId, gatewayId, regionId: null, createdBy: adminId, createdAt: nowIso() };
  const inserted = sql`exists (select 1 from gateway_assignments where id = ${row.id})`;
  const event = { action: "gateway-assignment.created", resourceId: row.id, groupId, networkId: null };
  return {
    before: [
      insertWhere(ctx.db, gatewayAssignments, row, and(isPlatformAdmin(adminId), sql`not ${onlyIf}`)!),
      auditStatement(ctx.db, ctx.audit, event, row.createdAt, inserted),
    ],
    onlyIf,
  };
}

/**
 * The batch's re-check for a write that names gateway nodes (a path, a pool's members): its first
 * statement (which must return rows when written) and what rides on it run only while every gateway those
 * nodes run on is still assigned to the group.
 */
export function stillAssigned(held: HeldNetwork, nodeIds: Iterable<string>): Conditional {
  const gatewayIds = new Set<string>();
  for (const id of nodeIds) {
    const gatewayId = held.nodes.get(id)?.gatewayId;
    if (gatewayId) gatewayIds.add(gatewayId);
  }
  return {
    onlyIf: gatewaysAssignedToGroup(held.network.groupId, [...gatewayIds]),
    happened: (results) => (results[0] as unknown[]).length > 0,
    rowAt: 0,
  };
}

/** The 400 when the batch's re-check refused: an assignment was withdrawn after the writer's check. */
export const assignmentWithdrawn = (subject: string) =>
  domainError(`${subject}: a gateway it runs on is no longer assigned to this network's group`);

/**
 * The commit of a node write, after the statements its gateway placement needs (if any). The node's own
 * statement comes first in `statements`; with a placement it is conditional, and a refusal (the assignment
 * withdrawn since the check) is the same 400 as the check's.
 */
export async function commitPlaced(
  ctx: WriterContext,
  placement: GatewayPlacement | undefined,
  statements: Parameters<typeof commit>[1],
  event: Parameters<typeof commit>[2],
  gatewayId: string | null,
) {
  if (!placement) return commit(ctx, statements, event);
  const at = placement.before.length;
  const happened = (results: unknown[]) => (results[at] as unknown[]).length > 0;
  const results = await commit(ctx, [...placement.before, ...statements], event, { onlyIf: placement.onlyIf, happened, rowAt: at });
  if (!happened(results)) throw placementRefused(gatewayId ?? "");
  return results;
}
