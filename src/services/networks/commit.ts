import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { nowIso } from "../../lib/ids";
import { type AuditContext, auditStatement, type DomainEvent } from "../audit/audit-trail";
import { eventStatements } from "../notifications/emit";
import { type ActingAuthority, actingAuthority, guardStatement, isGuardRefusal, refusal } from "./acting-authority";
import type { HotStore } from "./hot/hot-store";
import type { NetworkMemory } from "./memory/network-memory";

/**
 * What one write runs with: the writer's bindings and database, the network it holds, and the request it
 * serves (absent for changes the system makes on its own, e.g. devices leaving with their owner).
 */
export interface WriterContext {
  env: Env;
  db: Db;
  /** The network as this writer holds it; operations read it instead of D1 and apply what they commit. */
  memory: NetworkMemory;
  /** The network's hot state (hot/hot-store.ts): a node or network that goes takes its rows there with it. Absent in group writers. */
  hot?: HotStore;
  audit?: AuditContext;
  /** Ids of the notification events committed, for delivery after the answer. */
  notificationIds: string[];
  /**
   * Keeps (or stops) the writer's clock for its pools: while `needed`, pool health is evaluated every few
   * seconds (stale reports are noticed only by a clock). Absent: nothing to schedule (tests, group writers).
   */
  schedulePoolChecks?(networkId: string, needed: boolean): Promise<void>;
  /** Sets (or clears: null) the writer's clock for the next expiry of an access rule (operations/access-expiry.ts). */
  scheduleAccessExpiry?(networkId: string, at: number | null): Promise<void>;
}

/**
 * A write whose statements are conditional (an authorization decided inside the batch): `onlyIf` is the
 * SQL that holds when it happened, for the audit row and the outbox; `happened` reads it off the results.
 */
export interface Conditional {
  onlyIf: SQL;
  happened(results: unknown[]): boolean;
}

/**
 * The one commit of a write: its statements, the revision bumps they carry, its audit row and the
 * notification it raises, in a single D1 batch (atomic), led by the guard that re-checks the authority
 * of the user who asked for it (acting-authority.ts). Returns the results of the caller's statements.
 */
export async function commit(ctx: WriterContext, statements: BatchItem<"sqlite">[], event: DomainEvent, conditional?: Conditional) {
  const at = nowIso();
  const onlyIf = conditional?.onlyIf;
  const outbox = event.notify ? eventStatements(ctx.db, event.notify, at, onlyIf) : undefined;
  const trailing = [...(ctx.audit ? [auditStatement(ctx.db, ctx.audit, event, at, onlyIf)] : []), ...(outbox?.statements ?? [])];
  const authority = statements.length ? actingAuthority(ctx.audit, event) : undefined;
  const guard = authority ? [guardStatement(ctx.db, authority.holds)] : [];
  const [first, ...rest] = [...guard, ...statements, ...trailing];
  if (!first) return [];
  const results = (await batchUnlessRefused(ctx, [first, ...rest], authority)).slice(guard.length, guard.length + statements.length);
  if (conditional && !conditional.happened(results)) return results;
  if (outbox) ctx.notificationIds.push(outbox.id);
  return results;
}

/** A batch the guard refused changed nothing: answer as a fresh access check would. */
async function batchUnlessRefused(ctx: WriterContext, batch: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]], authority?: ActingAuthority) {
  try {
    return await ctx.db.batch(batch);
  } catch (error) {
    if (authority && isGuardRefusal(error)) throw await refusal(ctx.db, authority);
    throw error;
  }
}

/** The actor a notification names: who asked for the change, or nobody (a system change). */
export const actorOf = (ctx: WriterContext) => ctx.audit?.actor ?? { type: "anonymous" as const, id: null };
