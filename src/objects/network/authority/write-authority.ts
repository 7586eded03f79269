import { ApiError, notFound, serializeError, unauthorized } from "../../../lib/errors";
import type { WriteResult } from "../../../lib/write-result";
import { check } from "../../../services/authorization";
import type { WriterContext } from "../commit";
import type { DirectoryReads } from "../directory-reads";
import type { HeldNetwork } from "../memory/held-network";
import type { NetworkRow } from "../../../db/rows";
import type { KeptAuthority } from "./kept-authority";
import type { CallerStanding, OwedCheck, WriteCaller } from "./write-caller";

export type { WriteCaller } from "./write-caller";

const sessionEnded = () => unauthorized("The session has ended; sign in again");

/**
 * A write that needs the caller to manage the network (admin, owner, platform admin), authorised inside the
 * network's writer, as services/authorization.ts checks it (401 for an ended session, 404 without a role naming
 * `what`, 403 below admin). The Worker reads no network row for these writes. The check is one of:
 * - kept (authority/kept-authority.ts): a batch proved this caller lately, so nothing is read; the write's own
 *   batch decides, and a write that ends without one is checked before it answers (`ctx.owed`);
 * - on the copy the writer holds: one read of the caller's role and session (`directory`, possibly started
 *   before its turn);
 * - otherwise the one read of the network's row carries them (memory forWriteBy).
 * Whichever it was, the batch re-checks the caller like every user's write (commit.ts, the guard of
 * acting-authority.ts), so a caller signed out, demoted, removed or disabled after this check changes nothing.
 */
export async function managedWrite(ctx: WriterContext, networkId: string, caller: WriteCaller, what: string): Promise<HeldNetwork> {
  const quick = ctx.memory.withoutRead(networkId);
  if (quick && ctx.kept?.holds(caller, quick.network.groupId)) {
    ctx.owed = { caller, groupId: quick.network.groupId, what };
    return quick;
  }
  const { held, ...standing } = quick
    ? { held: quick, ...(await ctx.directory.caller(quick.network.groupId, caller)) }
    : await ctx.memory.forWriteBy(ctx.db, networkId, caller);
  if (!held) {
    if (caller.sessionId && !(await ctx.directory.caller("", caller)).live) throw sessionEnded();
    throw notFound("Network");
  }
  try {
    assertStanding(caller, standing, what);
  } catch (error) {
    // A kept caller refused here (its staged batch failed its guard; this is the write run again alone).
    ctx.kept?.forget(caller.userId);
    throw error;
  }
  return held;
}

/** A write that first authorises `caller` (managedWrite) and runs on the network as that check found it. */
export const asManager =
  <T>(networkId: string, caller: WriteCaller, what: string, write: (ctx: WriterContext, held: HeldNetwork) => Promise<T>) =>
  async (ctx: WriterContext): Promise<T> =>
    write(ctx, await managedWrite(ctx, networkId, caller, what));

function assertStanding(caller: WriteCaller, { role, live }: CallerStanding, what: string) {
  if (!live) throw sessionEnded();
  check(caller, role, "manage", what);
}

/**
 * What a fresh check of the caller answers (null: it holds): for a write let through on kept authority that
 * ended without a guarded batch, and for a caller not kept, before its write takes a turn (write-runner.ts).
 */
export async function owedRefusal(directory: DirectoryReads, owed: OwedCheck): Promise<ApiError | null> {
  try {
    assertStanding(owed.caller, await directory.caller(owed.groupId, owed.caller), owed.what);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * A write let through on kept authority (managedWrite) that ends without a guarded batch, a refusal or a
 * no-op of its own, answers only once a read confirms the caller: otherwise with what a fresh check says.
 */
export async function answerable<T>(ctx: WriterContext, result: WriteResult<T>): Promise<WriteResult<T>> {
  if (!ctx.owed || ctx.guarded) return result;
  const refused = await owedRefusal(ctx.directory, ctx.owed);
  if (!refused) return result;
  ctx.kept?.forget(ctx.owed.caller.userId);
  return { ok: false, error: serializeError(refused) };
}

/** The caller a write authorises itself, and what a caller without a role is told is missing. */
export type CallerCheck = { caller: WriteCaller; networkId: string; what: string };

/**
 * Before a write takes its turn in the writer's queue: a caller the writer does not keep is read (the read its
 * check in the queue then reuses) and refused here, so another tenant's refused writes cost this network's
 * writes no turn. A kept caller, or a network not yet held, goes straight to the queue (null).
 */
export async function refusedBeforeTurn(
  held: NetworkRow | null,
  kept: KeptAuthority,
  directory: DirectoryReads,
  { caller, networkId, what }: CallerCheck,
): Promise<ApiError | null> {
  if (held?.id !== networkId || kept.holds(caller, held.groupId)) return null;
  return owedRefusal(directory, { caller, groupId: held.groupId, what });
}
