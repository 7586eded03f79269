import type { NetworkRow } from "../../db/rows";
import type { Env } from "../../lib/env";
import { unwrap } from "../../lib/write-result";
import type { AuditContext } from "../../services/audit/audit-trail";
import { groupWriter, type NetworkChanges } from "../group/client";
import type { WriterContext } from "./commit";

/**
 * A network writer's change to its network row, made by the group's writer (which writes it from D1 as it finds
 * it): the writes staged before it commit first.
 */
export const viaGroupWriter =
  (ctx: WriterContext, env: Env, groupId: string, networkId: string, changes: NetworkChanges, audit?: AuditContext) =>
  async (): Promise<NetworkRow> => {
    await ctx.staging?.alone();
    return unwrap(groupWriter(env, groupId).applyNetworkChanges(networkId, changes, audit));
  };
