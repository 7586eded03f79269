import type { Mutation } from "../audit/record";
import type { Scope } from "../audit/scope";
import type { EventInput } from "./event-types";

type Json = Record<string, unknown>;

const POLICY_ACTIONS: Record<string, Record<string, string>> = {
  "/networks/:id/routing-policies": { POST: "created" },
  "/routing-policies/:id": { PUT: "updated", DELETE: "deleted" },
};

const pick = (body: unknown, keys: string[]) =>
  Object.fromEntries(keys.flatMap((key) => ((body as Json | null)?.[key] !== undefined ? [[key, (body as Json)[key]]] : [])));

/**
 * policy.changed and device.enrolled come from the audit trail rather than from their handlers: the
 * audit middleware sees every successful mutation with its route pattern and response, so the routes'
 * owners need not know about notifications.
 */
export function mutationEvents(mutation: Mutation, scope: Scope, body: unknown): EventInput[] {
  if (!scope.networkId || !scope.groupId) return [];
  const base = { networkId: scope.networkId, groupId: scope.groupId };
  const actor = mutation.actor;
  const action = POLICY_ACTIONS[mutation.route]?.[mutation.method];
  if (action) {
    const policyId = action === "created" ? mutation.ids.id : mutation.params.id;
    if (!policyId) return [];
    const policy = action === "deleted"
      ? { id: policyId, name: scope.name }
      : pick(body, ["id", "name", "type", "destinationCidr", "gatewayPath", "revision"]);
    return [{ type: "policy.changed", ...base, subjectId: policyId, data: { action, policy, actor } }];
  }
  if (mutation.route === "/client/devices" && mutation.method === "POST" && mutation.status === 201) {
    const device = pick((body as Json | null)?.device, ["id", "name", "platform", "clientVersion", "userId", "nodeId", "address"]);
    if (typeof device.id !== "string") return [];
    return [{ type: "device.enrolled", ...base, subjectId: device.id, data: { device, actor } }];
  }
  return [];
}
