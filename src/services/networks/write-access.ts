import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { routingPolicies } from "../../db/schema";
import { type ApiError, forbidden, notFound } from "../../lib/errors";
import type { UserAuth } from "../../lib/types";
import { check } from "../access";
import { holdsRoleInNetwork } from "../live-authority";
import type { Conditional, WriterContext } from "./commit";
import type { HeldNetwork } from "./memory/held-network";

/** Who asks for a write the writer authorises itself: what services/access.ts decides a role from. */
export type WriteCaller = Pick<UserAuth, "userId" | "platformRole">;

/** What a manager's write checked and must re-check in its batch. */
export interface ManagedWrite {
  held: HeldNetwork;
  /** The caller still manages the network when the batch runs (live-authority.ts): the write's condition. */
  authority: SQL;
}

/**
 * A write that needs the caller to manage the network (admin, owner, platform admin), authorised inside the
 * network's writer: its one read of the network's row carries the caller's role (memory forWriteBy), checked
 * as services/access.ts checks it (404 without a role, naming `what`; 403 below admin); then the batch
 * carries `authority`, so a caller demoted, removed or disabled after this check changes nothing. The Worker
 * reads no network row for these writes.
 */
export async function managedWrite(ctx: WriterContext, networkId: string, caller: WriteCaller, what: string): Promise<ManagedWrite> {
  const { held, role } = await ctx.memory.forWriteBy(ctx.db, networkId, caller.userId);
  check(caller, role, "manage", what);
  return { held, authority: holdsRoleInNetwork(caller.userId, networkId, ["admin", "owner"]) };
}

/** A write's condition and the caller's authority, both: the first statement returns rows only when both held. */
export function withAuthority(authority: SQL, condition?: Conditional): Conditional {
  return {
    onlyIf: condition ? and(condition.onlyIf, authority)! : authority,
    happened: condition?.happened ?? ((results) => (results[0] as unknown[]).length > 0),
  };
}

/** Why a conditional batch changed nothing: the caller's authority ended (403), else the write's own condition (`otherwise`). */
export async function refusal(db: Db, authority: SQL, otherwise: () => ApiError): Promise<ApiError> {
  const row = await db.get<{ holds: number }>(sql`select ${authority} as holds`);
  return row?.holds ? otherwise() : forbidden("Your access to this network ended before the change committed");
}

/** The network a policy is in (one indexed row, no network row): where the Worker sends a change to it. 404 when absent. */
export async function networkOfPolicy(db: Db, policyId: string): Promise<string> {
  const row = await db.select({ networkId: routingPolicies.networkId }).from(routingPolicies).where(eq(routingPolicies.id, policyId)).get();
  if (!row) throw notFound("Routing policy");
  return row.networkId;
}
