import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { routingPolicies } from "../../db/schema";
import { notFound } from "../../lib/errors";
import type { UserPrincipal } from "../../lib/types";
import { check } from "../access";
import type { WriterContext } from "./commit";
import type { HeldNetwork } from "./memory/held-network";

/** Who asks for a write the writer authorises itself: what services/access.ts decides a role from. */
export type WriteCaller = Pick<UserPrincipal, "userId" | "platformRole">;

/**
 * A write that needs the caller to manage the network (admin, owner, platform admin), authorised inside the
 * network's writer: its one read of the network's row carries the caller's role (memory forWriteBy), or, on
 * the copy the writer holds, one read of the membership (`directory`, possibly started before its turn); checked
 * as services/access.ts checks it (404 without a role, naming `what`; 403 below admin). The Worker reads no
 * network row for these writes; the batch re-checks the caller like every user's write (commit.ts, the
 * authority guard of acting-authority.ts), so a caller demoted, removed or disabled after this check changes nothing.
 */
export async function managedWrite(ctx: WriterContext, networkId: string, caller: WriteCaller, what: string): Promise<HeldNetwork> {
  const quick = ctx.memory.withoutRead(networkId);
  const { held, role } = quick
    ? { held: quick, role: await ctx.directory.role(quick.network.groupId, caller.userId) }
    : await ctx.memory.forWriteBy(ctx.db, networkId, caller.userId);
  check(caller, role, "manage", what);
  return held;
}

/** The network a policy is in (one indexed row, no network row): where the Worker sends a change to it. 404 when absent. */
export async function networkOfPolicy(db: Db, policyId: string): Promise<string> {
  const row = await db.select({ networkId: routingPolicies.networkId }).from(routingPolicies).where(eq(routingPolicies.id, policyId)).get();
  if (!row) throw notFound("Routing policy");
  return row.networkId;
}
