import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../lib/env";
import type { AuditContext } from "../../services/audit/audit-trail";
import { WriteRunner } from "../network/runner/write-runner";
import * as rows from "./network-rows";

/**
 * The single writer of one group's networks as a set (one instance per group, named by its id): no two
 * networks of a group may overlap or share a name, so network creation and name or CIDR changes are checked
 * and written here, one at a time. It keeps no durable storage (its writes go to D1), so it has its own class
 * and binding (GROUP_WRITER) rather than sharing the network writer's. A network's writer may call its
 * group's, never the reverse, so the two cannot deadlock. It runs its writes through the network writer's
 * run loop and commit (the one writer machinery: objects/network/runner/, objects/network/commit.ts).
 */
export class GroupWriter extends DurableObject<Env> {
  private readonly writes = new WriteRunner(this.env, this.ctx);

  createNetwork(input: rows.NewNetwork, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => rows.createNetwork(ctx, input));
  }

  /** Called by the network's writer (objects/network/operations/networks.ts updateNetwork), which holds its own queue meanwhile. */
  applyNetworkChanges(networkId: string, changes: rows.NetworkChanges, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => rows.applyNetworkChanges(ctx, networkId, changes));
  }
}
