import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gatewayAssignments } from "../../db/schema";
import { isForeignKeyViolation, isUniqueViolation } from "../../lib/db-errors";
import { conflict, domainError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { batchWithAudit } from "../audit/audited-batch";
import { gatewayExists } from "./gateways";
import { regionExists } from "./regions";

/**
 * Which inventory gateways a group may put gateway nodes on: platform admins assign a gateway, or a region
 * (all its gateways), to a group. The network writer enforces it (objects/network/authority/gateway-eligibility.ts).
 */
export type GatewayAssignment = typeof gatewayAssignments.$inferSelect;
export type AssignmentTarget = { gatewayId: string } | { regionId: string };

const assignmentEvent = (action: string, row: GatewayAssignment) => ({ action, resourceId: row.id, groupId: row.groupId, networkId: null });

export async function listAssignments(db: Db, groupId: string, limit: number, cursor: string | undefined) {
  const rows = await db
    .select()
    .from(gatewayAssignments)
    .where(and(eq(gatewayAssignments.groupId, groupId), afterCursor(gatewayAssignments, cursor)))
    .orderBy(asc(gatewayAssignments.createdAt), asc(gatewayAssignments.id))
    .limit(limit + 1)
    .all();
  return toPage(rows, limit, (row) => row);
}

/** 400 for a gateway or region that does not exist (also one deleted meanwhile: its foreign key); 409 for a repeat. */
export async function createAssignment(db: Db, groupId: string, target: AssignmentTarget, createdBy: string, audit: AuditContext) {
  const subject = "gatewayId" in target ? `gatewayId ${target.gatewayId}` : `regionId ${target.regionId}`;
  const exists = "gatewayId" in target ? await gatewayExists(db, target.gatewayId) : await regionExists(db, target.regionId);
  if (!exists) throw domainError(`${subject} is not in the gateway inventory`);
  const row: GatewayAssignment = {
    id: newId("gwa"),
    groupId,
    gatewayId: "gatewayId" in target ? target.gatewayId : null,
    regionId: "regionId" in target ? target.regionId : null,
    createdBy,
    createdAt: nowIso(),
  };
  try {
    await batchWithAudit(db, [db.insert(gatewayAssignments).values(row)], audit, assignmentEvent("gateway-assignment.created", row));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${subject} is already assigned to this group`);
    if (isForeignKeyViolation(error)) throw domainError(`${subject} is not in the gateway inventory`);
    throw error;
  }
  return row;
}

/**
 * Gateway nodes of the group's networks that would run on a gateway no longer assigned to the group if
 * this assignment went: on its gateway (or a gateway of its region) and covered by no other assignment.
 */
const strandedBy = (assignmentId: string) => sql`select n.id as node_id, n.gateway_id as gateway_id
  from gateway_assignments x
  join networks w on w.group_id = x.group_id
  join nodes n on n.network_id = w.id and n.is_gateway = 1
  join gateways g on g.id = n.gateway_id and (g.id = x.gateway_id or g.region_id = x.region_id)
  where x.id = ${assignmentId} and not exists (select 1 from gateway_assignments o where o.id <> x.id
    and o.group_id = x.group_id and (o.gateway_id = g.id or o.region_id = g.region_id))`;

async function assertNothingStranded(db: Db, assignmentId: string) {
  const stranded = await db.all<{ node_id: string; gateway_id: string }>(sql`${strandedBy(assignmentId)} limit 20`);
  if (stranded.length === 0) return;
  const named = stranded.map((row) => `${row.node_id} (on ${row.gateway_id})`).join(", ");
  throw conflict(
    `Gateway nodes of this group's networks still run on gateways this assignment covers: ${named}; move or delete them first`,
  );
}

/**
 * 409 while a gateway node of the group's networks depends on the assignment (named). The delete re-checks
 * that inside its batch, so a node placed between the check and the delete keeps its assignment.
 */
export async function deleteAssignment(db: Db, groupId: string, assignmentId: string, audit: AuditContext) {
  const row = await db
    .select()
    .from(gatewayAssignments)
    .where(and(eq(gatewayAssignments.id, assignmentId), eq(gatewayAssignments.groupId, groupId)))
    .get();
  if (!row) throw notFound("Gateway assignment");
  await assertNothingStranded(db, assignmentId);
  const nothingStranded = sql`not exists (${strandedBy(assignmentId)})`;
  const gone = sql`not exists (select 1 from gateway_assignments where id = ${assignmentId})`;
  const [deleted] = await db.batch([
    db
      .delete(gatewayAssignments)
      .where(and(eq(gatewayAssignments.id, assignmentId), nothingStranded))
      .returning({ id: gatewayAssignments.id }),
    auditStatement(db, audit, assignmentEvent("gateway-assignment.deleted", row), nowIso(), gone),
  ]);
  if (deleted.length === 0) await assertNothingStranded(db, assignmentId);
}
