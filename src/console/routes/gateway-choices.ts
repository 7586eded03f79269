import type { Schema } from "../../../client/index.ts";
import { isPlatformAdmin } from "../roles";
import type { NetworkContext } from "./network-context";

/** An inventory gateway as the add-node form offers it: whether the network's group has it assigned already. */
export interface GatewayChoice {
  gateway: Schema<"Gateway">;
  assigned: boolean;
}

/**
 * The gateways a gateway node of this network may run on (docs/identity.md, "Gateway assignment"): the ones
 * assigned to the network's group, directly or through their region. A platform admin is offered every
 * gateway, because placing a node on an unassigned one assigns it on the way; the assigned ones come first.
 */
export async function gatewayChoices(c: NetworkContext, groupId: string): Promise<GatewayChoice[]> {
  const [gateways, assignments] = await Promise.all([
    c.var.api.GET("/api/v1/gateways", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/groups/{id}/gateway-assignments", { params: { path: { id: groupId }, query: { limit: 200 } } }),
  ]);
  const items = assignments.data?.items ?? [];
  const gatewayIds = new Set(items.flatMap((item) => (item.gatewayId ? [item.gatewayId] : [])));
  const regionIds = new Set(items.flatMap((item) => (item.regionId ? [item.regionId] : [])));
  const choices = (gateways.data?.items ?? []).map((gateway) => ({
    gateway,
    assigned: gatewayIds.has(gateway.id) || regionIds.has(gateway.regionId),
  }));
  const offered = isPlatformAdmin(c.var.user) ? choices : choices.filter((choice) => choice.assigned);
  return offered.sort((a, b) => Number(b.assigned) - Number(a.assigned));
}
