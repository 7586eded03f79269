import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gateways, regions } from "../../db/schema";
import { uniquely } from "../../lib/db-errors";
import { conflict, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";

export type Region = typeof regions.$inferSelect;
export interface RegionInput {
  name: string;
  description: string;
}

export async function listRegions(db: Db, limit: number, cursor: string | undefined) {
  const rows = await db
    .select()
    .from(regions)
    .where(afterCursor(regions, cursor))
    .orderBy(asc(regions.createdAt), asc(regions.id))
    .limit(limit + 1)
    .all();
  return toPage(rows, limit, (row) => row);
}

export async function findRegion(db: Db, id: string): Promise<Region> {
  const region = await db.select().from(regions).where(eq(regions.id, id)).get();
  if (!region) throw notFound("Region");
  return region;
}

/** Region names are unique: the constraint answers a race the pre-check would miss (409). */
export async function createRegion(db: Db, input: RegionInput, audit: AuditContext): Promise<Region> {
  const now = nowIso();
  const row = { id: newId("reg"), ...input, createdAt: now, updatedAt: now };
  await uniquely("region", () => batchWithAudit(db, [db.insert(regions).values(row)], audit, platformEvent("region.created", row.id)));
  return row;
}

export async function updateRegion(db: Db, id: string, changes: Partial<RegionInput>, audit: AuditContext): Promise<Region> {
  const next = { ...(await findRegion(db, id)), ...changes, updatedAt: nowIso() };
  await uniquely("region", () =>
    batchWithAudit(db, [db.update(regions).set(next).where(eq(regions.id, next.id))], audit, platformEvent("region.updated", next.id)),
  );
  return next;
}

/** Only an empty region goes; a gateway added meanwhile fails the delete on its foreign key (409). */
export async function deleteRegion(db: Db, id: string, audit: AuditContext) {
  const region = await findRegion(db, id);
  const gateway = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.regionId, region.id)).limit(1).get();
  if (gateway) throw conflict("The region still has gateways");
  await uniquely("region", () =>
    batchWithAudit(db, [db.delete(regions).where(eq(regions.id, region.id))], audit, platformEvent("region.deleted", region.id)),
  );
}

/** Whether a region exists (a gateway or an agent token names it). */
export const regionExists = async (db: Db, id: string) =>
  !!(await db.select({ id: regions.id }).from(regions).where(eq(regions.id, id)).get());
