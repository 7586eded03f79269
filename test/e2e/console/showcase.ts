// A network with something on every console page, made through the API: what the accessibility and layout
// checks look at, and what docs/screenshots/ shows. Realistic names, because the screenshots are read by people.
import { generateKeyPairSync } from "node:crypto";
import { byId, expectAnswer, type TypedApiClient, typedApi } from "../support/api-client.ts";

export interface Showcase {
  groupId: string;
  networkId: string;
  policyId: string;
  /** gw-fra: a gateway node with an agent, serving DNS, first hop of the policy (the node page's picture). */
  nodeId: string;
}

/** A WireGuard public key: the raw 32 bytes of an X25519 public key, base64. */
const publicKey = () => {
  const der = generateKeyPairSync("x25519").publicKey.export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32).toString("base64");
};

export async function buildShowcase(baseUrl: string, admin: TypedApiClient): Promise<Showcase> {
  const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "eu-central" } }), 201, "region");
  const gateway = async (name: string, publicHost: string) =>
    expectAnswer(await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name, publicHost, capacity: 200 } }), 201, name);
  const inventory = [
    await gateway("edge-fra-1", "fra1.edge.example.net"),
    await gateway("edge-ams-1", "ams1.edge.example.net"),
    await gateway("edge-par-1", "par1.edge.example.net"),
  ];
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "platform-team" } }), 201, "group");
  const network = expectAnswer(
    await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "corp", cidr: "10.60.0.0/24", dnsDomain: "corp.internal" } }),
    201,
    "network",
  );
  const node = async (body: Record<string, unknown>) =>
    expectAnswer(await admin.POST("/api/v1/nodes", { body: { networkId: network.id, ...body } as never }), 201, String(body.name));
  const [fra, ams, par] = [
    await node({ name: "gw-fra", roles: ["gateway"], gatewayId: inventory[0]?.id, endpoint: "198.51.100.10:51820", servesDns: true }),
    await node({ name: "gw-ams", roles: ["gateway"], gatewayId: inventory[1]?.id, endpoint: "198.51.100.20:51820" }),
    await node({ name: "gw-par", roles: ["gateway"], gatewayId: inventory[2]?.id, endpoint: "198.51.100.30:51820" }),
  ];
  await node({ name: "build-server", publicKey: publicKey(), endpoint: "203.0.113.40:51820", tags: ["tag:ci"] });
  const pool = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/gateway-pools", {
      ...byId(network.id),
      body: {
        name: "edge",
        members: [
          { nodeId: ams?.id ?? "", priority: 1 },
          { nodeId: par?.id ?? "", priority: 2 },
        ],
      },
    }),
    201,
    "pool",
  );
  const policy = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/routing-policies", {
      ...byId(network.id),
      body: { name: "to-datacenter", type: "via_gateway", destinationCidr: "172.30.0.0/16", gatewayPath: [fra?.id ?? "", pool.id] },
    }),
    201,
    "policy",
  );
  for (const record of [
    { name: "db", type: "A" as const, value: "10.60.0.200" },
    { name: "wiki", type: "CNAME" as const, value: "build-server.corp.internal." },
    { name: "@", type: "TXT" as const, value: "owner=platform-team" },
  ]) {
    expectAnswer(await admin.POST("/api/v1/networks/{id}/dns/records", { ...byId(network.id), body: record }), 201, record.name);
  }
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "laptops" } }),
    201,
    "enrolment key",
  );
  expectAnswer(
    await typedApi(baseUrl).POST("/api/v1/client/devices", { body: { enrolmentKey: key.key, name: "laptop-ada", publicKey: publicKey() } }),
    201,
    "device",
  );
  // An access policy written but not enforced (the network stays open): the access page's rules and tests.
  expectAnswer(
    await admin.PUT("/api/v1/networks/{id}/access-policy", {
      ...byId(network.id),
      body: {
        rules: [
          { action: "allow", src: ["tag:ci"], dst: ["172.30.0.0/16"], ports: ["tcp:443"], description: "builds reach the datacenter" },
          { action: "allow", src: ["role:owner"], dst: ["*"], ports: ["*"], description: "owners reach everything" },
          { action: "deny", src: ["*"], dst: ["172.30.9.0/24"], ports: ["*"], description: "payroll LAN" },
        ],
        tests: [
          { src: "tag:ci", dst: "172.30.0.10", port: "tcp:443", expect: "allow" },
          { src: "tag:ci", dst: "172.30.9.10", port: "tcp:443", expect: "deny" },
        ],
      },
    }),
    200,
    "access policy",
  );
  // gw-fra and gw-ams run their agents; gw-par's never reported (the chain shows it unhealthy, standby).
  await reportAsAgent(baseUrl, admin, inventory[0]?.id ?? "", fra?.id ?? "");
  await reportAsAgent(baseUrl, admin, inventory[1]?.id ?? "", ams?.id ?? "");
  return { groupId: group.id, networkId: network.id, policyId: policy.id, nodeId: fra?.id ?? "" };
}

/** What a gateway machine's agent does: enrol for its inventory gateway, read the desired state, report it applied. */
export async function reportAsAgent(baseUrl: string, admin: TypedApiClient, gatewayId: string, nodeId: string): Promise<void> {
  const issued = expectAnswer(
    await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId } }),
    201,
    "agent enrolment token",
  );
  const enrolled = expectAnswer(
    await typedApi(baseUrl).POST("/api/v1/agents/enrol", {
      body: { token: issued.token, name: `agent-${nodeId.slice(-6)}`, version: "1.0.0" },
    }),
    201,
    "agent enrol",
  );
  const agent = typedApi(baseUrl, enrolled.credential);
  const desired = expectAnswer(await agent.GET("/api/v1/agents/me/desired-state"), 200, "desired state");
  const entry = desired.nodes.find((node) => node.nodeId === nodeId);
  if (!entry?.config) throw new Error(`the agent's desired state has no config for node ${nodeId}: ${JSON.stringify(desired)}`);
  expectAnswer(
    await agent.POST("/api/v1/agents/me/report", {
      body: {
        nodes: [{ nodeId, appliedRoutingRevision: entry.config.routingRevision, appliedDnsRevision: entry.dns?.revision, peers: [] }],
      },
    }),
    200,
    "agent report",
  );
}
