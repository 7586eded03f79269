import type { AccessPolicyInput } from "../access-policy/access-state";
import { expireAccessRules } from "../operations/access-expiry";
import { accessPolicyView, checkAccessFlow, previewAccessPolicy } from "../views/access-policy";
import { accessSourcesView } from "../views/access-sources";
import type { WriteRunner } from "../runner/write-runner";

/**
 * The network's access policy in its writer (docs/access.md), besides the PUT (a write like any other: the class's
 * method and operations/access-policy.ts): the expiry of lapsed rules, which the writer's alarm runs, and the reads
 * of the held policy.
 */
export class AccessPolicies {
  constructor(private readonly writes: WriteRunner) {}

  /** A lapsed access rule stops without a write (operations/access-expiry.ts): the alarm runs this at its expiresAt. */
  expire(networkId: string) {
    return this.writes.write(undefined, (ctx) => expireAccessRules(ctx, networkId));
  }
  read(networkId: string) {
    return this.writes.read(networkId, (held) => accessPolicyView(held));
  }
  preview(networkId: string, input: AccessPolicyInput) {
    return this.writes.read(networkId, (held) => previewAccessPolicy(held, input));
  }
  check(networkId: string, query: { src: string; dst: string; port: string }) {
    return this.writes.read(networkId, (held) => checkAccessFlow(held, query));
  }
  sources(networkId: string, dst: string) {
    return this.writes.read(networkId, (held, topology) => accessSourcesView(held, dst, topology().access));
  }
}
