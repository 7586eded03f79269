import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gateways, type GatewayStatus } from "../../db/schema";
import { uniquely } from "../../lib/db-errors";
import { notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import type { Gateway, GatewayChanges } from "./gateways";

/** A gateway-manager agent's view of the inventory: the gateways of its own region, nothing else. */
type Health = Gateway["health"];

export async function listRegionGateways(db: Db, regionId: string, limit: number, cursor: string | undefined) {
  const rows = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.regionId, regionId), afterCursor({ createdAt: gateways.createdAt, id: gateways.id }, cursor)))
    .orderBy(asc(gateways.createdAt), asc(gateways.id))
    .limit(limit + 1)
    .all();
  return toPage(rows, limit, (row) => row);
}

export interface Registration {
  name: string;
  publicHost: string | null;
  capacity: number | null;
  health: Health;
}

export async function registerGateway(db: Db, regionId: string, input: Registration, audit: AuditContext): Promise<Gateway> {
  const now = nowIso();
  const row = {
    id: newId("gw"),
    regionId,
    status: "active" as GatewayStatus,
    ...input,
    healthCheckedAt: input.health === "unknown" ? null : now,
    createdAt: now,
    updatedAt: now,
  };
  await uniquely("gateway", () =>
    batchWithAudit(db, [db.insert(gateways).values(row)], audit, platformEvent("gateway.registered", row.id)),
  );
  return row;
}

/** Another region's gateway answers 404, like one that does not exist. A reported health stamps healthCheckedAt. */
export async function updateRegionGateway(
  db: Db,
  regionId: string,
  id: string,
  changes: GatewayChanges & { health?: Health },
  audit: AuditContext,
) {
  const where = and(eq(gateways.id, id), eq(gateways.regionId, regionId));
  const gateway = await db.select().from(gateways).where(where).get();
  if (!gateway) throw notFound("Gateway");
  const now = nowIso();
  const next = { ...gateway, ...changes, healthCheckedAt: changes.health ? now : gateway.healthCheckedAt, updatedAt: now };
  await uniquely("gateway", () =>
    batchWithAudit(db, [db.update(gateways).set(next).where(where)], audit, platformEvent("gateway.updated", next.id)),
  );
  return next;
}
