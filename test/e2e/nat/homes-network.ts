// What the operator does through the API before any laptop runs wgo: a group and network for the two homes,
// an inventory gateway with the network's relay node on it (relay: true, the public endpoint of the relay
// host: the one UDP port anyone opens), a gateway-daemon token for the relay's agent and an enrolment key
// for the laptops (up to three).
import { byId, expectAnswer, type TypedApiClient } from "../support/api-client.ts";

export const RELAY_PORT = 51820;

export interface HomesNetwork {
  networkId: string;
  relayNodeId: string;
  /** For `wgo gateway enrol` on the relay host. */
  relayToken: string;
  /** For the laptops' `wgo up --enrolment-key`. */
  enrolmentKey: string;
}

export async function createHomesNetwork(
  admin: TypedApiClient,
  { cidr, relayEndpoint }: { cidr: string; relayEndpoint: string },
): Promise<HomesNetwork> {
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "nat-homes" } }), 201, "group");
  const network = expectAnswer(await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "homes", cidr } }), 201, "network");
  const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "internet" } }), 201, "region");
  const gateway = expectAnswer(await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name: "relay" } }), 201, "gateway");
  // No key: the relay's agent makes it.
  const relay = expectAnswer(
    await admin.POST("/api/v1/nodes", {
      body: {
        networkId: network.id,
        name: "relay",
        roles: ["gateway"],
        gatewayId: gateway.id,
        endpoint: relayEndpoint,
        listenPort: RELAY_PORT,
        relay: true,
      },
    }),
    201,
    "create relay node",
  );
  const token = expectAnswer(
    await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: gateway.id } }),
    201,
    "enrolment token",
  );
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "laptops", usageLimit: 3 } }),
    201,
    "enrolment key",
  );
  return { networkId: network.id, relayNodeId: relay.id, relayToken: token.token, enrolmentKey: key.key };
}
