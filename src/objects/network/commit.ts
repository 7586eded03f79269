import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { nowIso } from "../../lib/ids";
import { type AuditContext, auditStatement, type DomainEvent } from "../../services/audit/audit-trail";
import { eventStatements, queuedAny } from "../../services/notifications/emit";
import { type ActingAuthority, actingAuthority, guardStatement, isGuardRefusal, refusal } from "./authority/acting-authority";
import type { DirectoryReads } from "./directory-reads";
import type { HotStore } from "./hot/hot-store";
import type { NetworkMemory } from "./memory/network-memory";
import type { KeptAuthority } from "./authority/kept-authority";
import type { OwedCheck } from "./authority/write-caller";

/**
 * What one write runs with: the writer's bindings and database, the network it holds, and the request it
 * serves (absent for changes the system makes on its own, e.g. devices leaving with their owner).
 */
export interface WriterContext {
  env: Env;
  db: Db;
  /**
   * Reads of rows this network's writes never change (admin settings, roles, the inventory, other networks'
   * egress): they do not wait for the batches staged before this write (`db`'s reads do), so a write that
   * reads only these still commits together with others, and its writer may start them before its turn.
   */
  directory: DirectoryReads;
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
  /**
   * Set when the write may commit together with others (runner/combined-commits.ts): commit() stages its
   * batch here and answers at once, as if it had committed; the writer answers the caller only once it has.
   */
  staging?: Staging;
  /** Callers a committed batch proved (authority/kept-authority.ts): absent, every managed write reads its caller. */
  kept?: KeptAuthority;
  /** Set by a write let through on kept authority (write-authority.ts): proven by its guarded batch, else checked before it answers. */
  owed?: OwedCheck;
  /** Set once the write's batch carries the acting user's guard: whatever it answers, that batch decided its authority. */
  guarded?: boolean;
  /**
   * Side effects D1 cannot roll back (the object's own storage), run by the writer once the write's batch has
   * committed: a staged batch may still be refused after commit() returned. Absent: run at once (tests).
   */
  whenCommitted?: (() => void)[];
}

/** `effect` once the write's batch has committed (WriterContext.whenCommitted). */
export function onceCommitted(ctx: WriterContext, effect: () => void) {
  if (ctx.whenCommitted) ctx.whenCommitted.push(effect);
  else effect();
}

/** A write's authority guard, staged apart: a combined batch runs each distinct one once (runner/combined-commits.ts). */
export interface StagedGuard {
  key: string;
  item: BatchItem<"sqlite">;
}

/** Where a write's batch goes when it commits with others (WriteRunner, over runner/combined-commits.ts). */
export interface Staging {
  /**
   * The write's statements, to commit with the writes staged around it (a write may commit more than once);
   * `seen` is given their results once they have.
   */
  stage(items: BatchItem<"sqlite">[], seen?: (results: unknown[]) => void, guard?: StagedGuard): void;
  /** Before a batch of the write's own (its results decide what happened): the writes before it commit first. */
  alone(): Promise<void>;
}

/**
 * A write whose statements are conditional (an authorization decided inside the batch): `onlyIf` is the
 * SQL that holds when it happened, for the audit row and the outbox; `happened` reads it off the results.
 */
export interface Conditional {
  onlyIf: SQL;
  happened(results: unknown[]): boolean;
  /**
   * When `happened` means exactly "statement `rowAt` wrote a row": the batch can assert that itself, so the
   * write may be staged with others (the batch fails, and the write runs again alone, when it did not).
   */
  rowAt?: number;
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
  const staging = ctx.staging;
  if (staging && (!conditional || conditional.rowAt !== undefined)) {
    const asserted = conditional?.rowAt === undefined ? statements : assertWrote(ctx.db, statements, conditional.rowAt);
    const fanOutAt = asserted.length + trailing.length - 1;
    const seen = (results: unknown[]) => {
      // Only an event that queued a delivery gets the first attempt after the answer.
      if (outbox && queuedAny(results[fanOutAt])) ctx.notificationIds.push(outbox.id);
      if (authority) proven(ctx, authority);
    };
    ctx.guarded ||= !!authority;
    const staged = authority && guard[0] ? { key: authority.key, item: guard[0] } : undefined;
    staging.stage([...asserted, ...trailing], outbox || authority ? seen : undefined, staged);
    return speculated(statements);
  }
  if (staging) await staging.alone();
  const [first, ...rest] = [...guard, ...statements, ...trailing];
  if (!first) return [];
  const all = await batchUnlessRefused(ctx, [first, ...rest], authority);
  if (authority) {
    ctx.guarded = true;
    proven(ctx, authority);
  }
  const results = all.slice(guard.length, guard.length + statements.length);
  if (conditional && !conditional.happened(results)) return results;
  if (outbox && queuedAny(all.at(-1))) ctx.notificationIds.push(outbox.id);
  return results;
}

/** After statement `at`, a guard that it changed a row (SQLite's changes()): otherwise the batch rolls back. */
const assertWrote = (db: Db, statements: BatchItem<"sqlite">[], at: number) => [
  ...statements.slice(0, at + 1),
  guardStatement(db, sql`changes() > 0`),
  ...statements.slice(at + 1),
];

/**
 * The results a staged write reads before its batch ran: every statement wrote (returned) a row. They are
 * true of a batch that commits (its conditions are asserted in it); one that does not commit runs again alone.
 */
const speculated = (statements: BatchItem<"sqlite">[]): unknown[] => statements.map(() => [{}]);

/** A batch the guard refused changed nothing: answer as a fresh access check would. */
async function batchUnlessRefused(ctx: WriterContext, batch: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]], authority?: ActingAuthority) {
  try {
    return await ctx.db.batch(batch);
  } catch (error) {
    if (authority && isGuardRefusal(error)) {
      ctx.kept?.forget(authority.userId);
      throw await refusal(ctx.db, authority);
    }
    throw error;
  }
}

/** A manager's write committed past its guard: the writer keeps the caller (a device owner's own write proves less). */
function proven(ctx: WriterContext, { userId, groupId, device, session }: ActingAuthority) {
  if (!device && session) ctx.kept?.remember({ userId, sessionId: session.id, platformRole: session.platformRole }, groupId);
}

/** The actor a notification names: who asked for the change, or nobody (a system change). */
export const actorOf = (ctx: WriterContext) => ctx.audit?.actor ?? { type: "anonymous" as const, id: null };
