import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../../lib/env";
import { unwrap } from "../../../lib/write-result";
import type { AuditContext } from "../../audit/audit-trail";
import type { WriterContext } from "../commit";
import * as networks from "../operations/networks";
import { typedStub } from "./typed-stub";
import { WriteRunner } from "./write-runner";

/**
 * The single writer of one group's networks as a set (one instance per group, named by its id): no two
 * networks of a group may overlap or share a name, so network creation and name or CIDR changes are checked
 * and written here, one at a time. It keeps no durable storage (its writes go to D1), so it has its own class
 * and binding (GROUP_WRITER) rather than sharing the network writer's. A network's writer may call its
 * group's, never the reverse, so the two cannot deadlock.
 */
export class GroupWriter extends DurableObject<Env> {
  private readonly writes = new WriteRunner(this.env, this.ctx);

  createNetwork(input: networks.NewNetwork, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => networks.createNetwork(ctx, input));
  }

  /** Called by the network's writer (operations/networks.ts updateNetwork), which holds its own queue meanwhile. */
  applyNetworkChanges(networkId: string, changes: networks.NetworkChanges, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => networks.applyNetworkChanges(ctx, networkId, changes));
  }
}

/** The group's writer: `await unwrap(groupWriter(env, groupId).createNetwork(...))`. */
export const groupWriter = (env: Env, groupId: string) => typedStub<GroupWriter>(env.GROUP_WRITER, groupId);

/**
 * A network writer's change to its network row, made by the group's writer (which writes it from D1 as it finds
 * it): the writes staged before it commit first.
 */
export const viaGroupWriter =
  (ctx: WriterContext, env: Env, groupId: string, networkId: string, changes: networks.NetworkChanges, audit?: AuditContext) =>
  async () => {
    await ctx.staging?.alone();
    return unwrap(groupWriter(env, groupId).applyNetworkChanges(networkId, changes, audit));
  };
