import type { AuditContext } from "../../../services/audit/audit-trail";
import * as policies from "../operations/policies";
import type { WriteCaller } from "../authority/write-access";
import type { WriteRunner } from "../runner/write-runner";

/**
 * Routing-policy writes in the network's writer: each authorises `caller` itself (write-access.ts), checked
 * before its turn unless the writer keeps the caller, and starts its directory reads on arrival (`warm`).
 */
export class PolicyWrites {
  constructor(private readonly writes: WriteRunner) {}

  create(networkId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    const by = { caller, networkId, what: "Network" };
    const warm = policies.warmPolicyReads(input, caller);
    return this.writes.write(audit, (ctx) => policies.createPolicy(ctx, networkId, input, caller), warm, by);
  }
  replace(networkId: string, policyId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    const by = { caller, networkId, what: "Routing policy" };
    const warm = policies.warmPolicyReads(input, caller);
    return this.writes.write(audit, (ctx) => policies.replacePolicy(ctx, networkId, policyId, input, caller), warm, by);
  }
  delete(networkId: string, policyId: string, caller: WriteCaller, audit?: AuditContext) {
    const by = { caller, networkId, what: "Routing policy" };
    return this.writes.write(audit, (ctx) => policies.deletePolicy(ctx, networkId, policyId, caller), undefined, by);
  }
}
