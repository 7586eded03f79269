import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { regions, routingPolicies } from "../../db/schema";
import type { Env } from "../../lib/env";
import { domainError } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { effectiveSettings, readSettings, type Settings, writeSettingsStatement } from "./settings";

/** Lowering the hop limit never rewrites or disables a policy: the ones now too long are listed instead. */
const overLimit = (db: Db, maxHops: number) =>
  db
    .select({
      policyId: routingPolicies.id,
      networkId: routingPolicies.networkId,
      hops: sql<number>`json_array_length(${routingPolicies.gatewayPath})`,
    })
    .from(routingPolicies)
    .where(sql`json_array_length(${routingPolicies.gatewayPath}) > ${maxHops}`)
    .limit(200)
    .all();

/** What the admins' settings page shows: the stored values, those in force, and the policies over the hop limit. */
export async function settingsView(env: Env, db: Db) {
  const stored = await readSettings(db);
  const effective = effectiveSettings(env, stored.settings);
  return { ...stored, effective, policiesOverLimit: await overLimit(db, effective.routingPolicyMaxHops) };
}

/** Replaces the settings; eligible regions must exist. The settings and their audit row commit together. */
export async function saveSettings(db: Db, settings: Settings, userId: string, audit: AuditContext) {
  const wanted = settings.gatewayEligibility.regionIds ?? [];
  if (wanted.length > 0) {
    const known = new Set((await db.select({ id: regions.id }).from(regions).where(inArray(regions.id, wanted)).all()).map((r) => r.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) throw domainError(`gatewayEligibility.regionIds: ${unknown.join(", ")} are not regions`);
  }
  await batchWithAudit(db, [writeSettingsStatement(db, settings, userId, nowIso())], audit, platformEvent("settings.updated", null));
}
