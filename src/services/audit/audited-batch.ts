import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { type AuditContext, auditStatement, type DomainEvent } from "./audit-trail";

/**
 * A change and its audit row in one D1 batch (atomic): the row exists exactly when the change committed.
 * Returns the results of the change's own statements, in order.
 */
export async function batchWithAudit(db: Db, statements: BatchItem<"sqlite">[], audit: AuditContext, event: DomainEvent) {
  const all: BatchItem<"sqlite">[] = [...statements, auditStatement(db, audit, event)];
  const results: unknown[] = await db.batch(all as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return results.slice(0, statements.length);
}

/** An event about something that belongs to no group or network (inventory, agents, settings, channels). */
export const platformEvent = (action: string, resourceId: string | null): DomainEvent => ({
  action,
  resourceId,
  groupId: null,
  networkId: null,
});

/** A request whose only write is its audit row (it changes nothing itself, e.g. a password-reset request). */
export async function recordAlone(db: Db, audit: AuditContext, event: DomainEvent) {
  await db.batch([auditStatement(db, audit, event)]);
}
