import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { metricsTokens } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { randomToken, sha256 } from "../auth/tokens";

/** Metrics tokens are opaque; the prefix tells them from user, device (`dvc_`) and agent (`agc_`) credentials. */
export const METRICS_TOKEN_PREFIX = "mtk_";

const live = isNull(metricsTokens.revokedAt);

/**
 * A new metrics token, shown once; the live one (if any) is revoked in the same batch, so rotating is
 * issuing again and two tokens are never live at once. The audit row names the new token's id.
 */
export async function issueMetricsToken(db: Db, createdBy: string, audit: AuditContext) {
  const now = nowIso();
  const token = `${METRICS_TOKEN_PREFIX}${randomToken()}`;
  const row = { id: newId("mtk"), tokenHash: sha256(token), createdBy, createdAt: now, revokedAt: null };
  await batchWithAudit(
    db,
    [db.update(metricsTokens).set({ revokedAt: now }).where(live), db.insert(metricsTokens).values(row)],
    audit,
    platformEvent("metrics-token.issued", row.id),
  );
  return { id: row.id, createdAt: now, token };
}

/** Revokes the live token at once (the next scrape with it is 401); 404 when none is live. */
export async function revokeMetricsToken(db: Db, audit: AuditContext) {
  const current = await currentMetricsToken(db);
  if (!current) throw notFound("Metrics token");
  const [revoked] = await batchWithAudit(
    db,
    [
      db
        .update(metricsTokens)
        .set({ revokedAt: nowIso() })
        .where(and(eq(metricsTokens.id, current.id), live))
        .returning({ id: metricsTokens.id }),
    ],
    audit,
    platformEvent("metrics-token.revoked", current.id),
  );
  // Revoked by a concurrent request between the read and the batch: that request's row tells it.
  if ((revoked as unknown[]).length === 0) throw notFound("Metrics token");
}

/** The live token's id and age, never its secret (only its hash is stored). */
export const currentMetricsToken = (db: Db) =>
  db
    .select({ id: metricsTokens.id, createdAt: metricsTokens.createdAt, createdBy: metricsTokens.createdBy })
    .from(metricsTokens)
    .where(live)
    .orderBy(desc(metricsTokens.createdAt))
    .get();

/** Whether `token` is the live metrics token: one indexed read by hash, so revoking takes effect at once. */
export async function isLiveMetricsToken(db: Db, token: string) {
  if (!token.startsWith(METRICS_TOKEN_PREFIX)) return false;
  const row = await db
    .select({ id: metricsTokens.id })
    .from(metricsTokens)
    .where(and(eq(metricsTokens.tokenHash, sha256(token)), live))
    .get();
  return row !== undefined;
}
