import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gateways, type GatewayStatus, memberships, networks, nodes } from "../../db/schema";
import { uniquely } from "../../lib/db-errors";
import { conflict, domainError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { UserPrincipal } from "../../lib/types";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { regionExists } from "./regions";

export type Gateway = typeof gateways.$inferSelect;
export interface GatewayInput {
  regionId: string;
  name: string;
  publicHost: string | null;
  status: GatewayStatus;
  capacity: number | null;
}
export type GatewayChanges = Partial<Omit<GatewayInput, "regionId">>;

export async function listGateways(db: Db, query: { limit: number; cursor?: string; regionId?: string; status?: GatewayStatus }) {
  const rows = await db
    .select()
    .from(gateways)
    .where(
      and(
        afterCursor(gateways, query.cursor),
        query.regionId ? eq(gateways.regionId, query.regionId) : undefined,
        query.status ? eq(gateways.status, query.status) : undefined,
      ),
    )
    .orderBy(asc(gateways.createdAt), asc(gateways.id))
    .limit(query.limit + 1)
    .all();
  return toPage(rows, query.limit, (row) => row);
}

export async function findGateway(db: Db, id: string): Promise<Gateway> {
  const gateway = await db.select().from(gateways).where(eq(gateways.id, id)).get();
  if (!gateway) throw notFound("Gateway");
  return gateway;
}

/** The served networks are filtered by the caller's memberships: the inventory must not reveal other tenants. */
export async function gatewayDetail(db: Db, auth: UserPrincipal, id: string) {
  const gateway = await findGateway(db, id);
  const served = db
    .select({ networkId: nodes.networkId, nodeId: nodes.id })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId));
  const visible =
    auth.platformRole === "admin"
      ? served.where(eq(nodes.gatewayId, gateway.id))
      : served
          .innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
          .where(eq(nodes.gatewayId, gateway.id));
  return { ...gateway, networks: await visible.limit(1000).all() };
}

export async function createGateway(db: Db, input: GatewayInput, audit: AuditContext): Promise<Gateway> {
  if (!(await regionExists(db, input.regionId))) throw domainError(`regionId ${input.regionId} is not a region`);
  const now = nowIso();
  const row = { id: newId("gw"), ...input, health: "unknown" as const, healthCheckedAt: null, createdAt: now, updatedAt: now };
  await uniquely("gateway", () => batchWithAudit(db, [db.insert(gateways).values(row)], audit, platformEvent("gateway.created", row.id)));
  return row;
}

export async function updateGateway(db: Db, id: string, changes: GatewayChanges, audit: AuditContext): Promise<Gateway> {
  const next = { ...(await findGateway(db, id)), ...changes, updatedAt: nowIso() };
  await uniquely("gateway", () =>
    batchWithAudit(db, [db.update(gateways).set(next).where(eq(gateways.id, next.id))], audit, platformEvent("gateway.updated", next.id)),
  );
  return next;
}

/** Only a gateway no node runs on goes; a node placed meanwhile fails the delete on its foreign key (409). */
export async function deleteGateway(db: Db, id: string, audit: AuditContext) {
  const gateway = await findGateway(db, id);
  const node = await db.select({ id: nodes.id }).from(nodes).where(eq(nodes.gatewayId, gateway.id)).limit(1).get();
  if (node) throw conflict(`Gateway node ${node.id} still runs on this gateway`);
  await uniquely("gateway", () =>
    batchWithAudit(db, [db.delete(gateways).where(eq(gateways.id, gateway.id))], audit, platformEvent("gateway.deleted", gateway.id)),
  );
}

/** Whether a gateway exists (an agent token names it). */
export const gatewayExists = async (db: Db, id: string) =>
  !!(await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.id, id)).get());
