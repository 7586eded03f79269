// What the operator does through the API before any laptop runs wgo: a group and network for the two homes,
// an inventory gateway with the network's relay node on it (relay: true, the public endpoint of the relay
// host: the one UDP port anyone opens), a gateway-daemon token for the relay's agent and an enrolment key
// for the two laptops.
import { type ApiClient, byId, expectAnswer, type TypedApiClient } from "../support/api-client.ts";

export const RELAY_PORT = 51820;

export interface HomesNetwork {
  networkId: string;
  relayNodeId: string;
  /** For `wgo gateway enrol` on the relay host. */
  relayToken: string;
  /** For both laptops' `wgo up --enrolment-key`. */
  enrolmentKey: string;
}

/** `raw` for the node: `relay` is issue 28's field, newer than some generated clients. */
export async function createHomesNetwork(
  admin: TypedApiClient,
  raw: ApiClient,
  { cidr, relayEndpoint }: { cidr: string; relayEndpoint: string },
): Promise<HomesNetwork> {
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "nat-homes" } }), 201, "group");
  const network = expectAnswer(await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "homes", cidr } }), 201, "network");
  const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "internet" } }), 201, "region");
  const gateway = expectAnswer(await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name: "relay" } }), 201, "gateway");
  // No key: the relay's agent makes it.
  const relay = await raw.post("/nodes", {
    networkId: network.id,
    name: "relay",
    roles: ["gateway"],
    gatewayId: gateway.id,
    endpoint: relayEndpoint,
    listenPort: RELAY_PORT,
    relay: true,
  });
  if (relay.status !== 201) throw new Error(`create relay node: ${relay.status} ${relay.text}`);
  const token = expectAnswer(
    await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: gateway.id } }),
    201,
    "enrolment token",
  );
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "laptops", usageLimit: 2 } }),
    201,
    "enrolment key",
  );
  return { networkId: network.id, relayNodeId: relay.body.id, relayToken: token.token, enrolmentKey: key.key };
}
