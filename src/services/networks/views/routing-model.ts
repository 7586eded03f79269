import type { NetworkRow, NodeRow, PolicyRow } from "../state";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "../routing";

/** Stored rows → the routing core's inputs. */
export function toRoutingNetwork(network: NetworkRow, dnsServers: string[] = []): RoutingNetwork {
  return { id: network.id, cidr: network.cidr, routingRevision: network.routingRevision, dnsServers };
}

export function toRoutingNode(node: NodeRow): RoutingNode {
  const routing: RoutingNode["routing"] = node.routingMode === "only"
    ? { mode: "only", policyIds: node.routingPolicyIds }
    : { mode: node.routingMode };
  return {
    id: node.id, name: node.name, address: node.address, publicKey: node.publicKey,
    endpoint: node.endpoint, listenPort: node.listenPort, isGateway: node.isGateway, routing,
  };
}

export const toRoutingPolicy = (policy: Pick<PolicyRow, "id" | "name" | "destinationCidr" | "gatewayPath">): RoutingPolicy => ({
  id: policy.id, name: policy.name, destinationCidr: policy.destinationCidr, gatewayPath: policy.gatewayPath,
});
