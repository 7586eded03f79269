// One tenant of a shared inventory gateway, as an operator sets it up through the API: its own group and
// network (own domain), a keyless gateway node on the shared gateway (its own listen port: every node's
// UDP socket is in the gateway's underlay), a via_gateway policy to its LAN behind that gateway, a DNS record
// and a device enrolment key.
import { byId, expectAnswer, type TypedApiClient } from "../support/api-client.ts";

export interface Tenant {
  name: string;
  networkId: string;
  cidr: string;
  domain: string;
  gatewayNodeId: string;
  gatewayAddress: string;
  lan: string;
  lanHost: string;
  enrolmentKey: string;
}

export async function createTenant(
  admin: TypedApiClient,
  spec: { name: string; cidr: string; lan: string; gatewayId: string; endpoint: string; listenPort: number },
): Promise<Tenant> {
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: `tenant-${spec.name}` } }), 201, "create group");
  const domain = `${spec.name}.internal`;
  const network = expectAnswer(
    await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: spec.name, cidr: spec.cidr, dnsDomain: domain } }),
    201,
    "create network",
  );
  const node = expectAnswer(
    await admin.POST("/api/v1/nodes", {
      body: {
        networkId: network.id,
        name: `gw-${spec.name}`,
        roles: ["gateway"],
        gatewayId: spec.gatewayId,
        endpoint: spec.endpoint,
        listenPort: spec.listenPort,
      },
    }),
    201,
    "create gateway node",
  );
  expectAnswer(
    await admin.POST("/api/v1/networks/{id}/routing-policies", {
      ...byId(network.id),
      body: { name: "lan", type: "via_gateway", destinationCidr: spec.lan, gatewayPath: [node.id] },
    }),
    201,
    "create LAN policy",
  );
  const lanHost = spec.lan.replace(/\.0\/24$/, ".10");
  expectAnswer(
    await admin.POST("/api/v1/networks/{id}/dns/records", { ...byId(network.id), body: { name: "app", type: "A", value: lanHost } }),
    201,
    "create DNS record",
  );
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "device" } }),
    201,
    "enrolment key",
  );
  return {
    name: spec.name,
    networkId: network.id,
    cidr: spec.cidr,
    domain,
    gatewayNodeId: node.id,
    gatewayAddress: node.address,
    lan: spec.lan,
    lanHost,
    enrolmentKey: key.key,
  };
}

/**
 * Tenant `from` asks for a via_gateway policy to `destination` through its own gateway node. Returns whether
 * the API accepted it: a server that refuses destinations overlapping another network's on the same gateway
 * may say no, which is as good (the agent must refuse to forward it either way).
 */
export async function tryCrossPolicy(admin: TypedApiClient, from: Tenant, name: string, destination: string): Promise<boolean> {
  const answer = await admin.POST("/api/v1/networks/{id}/routing-policies", {
    ...byId(from.networkId),
    body: { name, type: "via_gateway", destinationCidr: destination, gatewayPath: [from.gatewayNodeId] },
  });
  return answer.response.status === 201;
}
