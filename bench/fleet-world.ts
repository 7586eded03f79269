// The fleet, built through the API as an operator would: FLEET.networks networks in one group, each with a gateway
// node on its own inventory gateway, run by an agent that enrols and registers its key (as `wgo gateway enrol` and
// its first round do), and FLEET.devices devices enrolled headless with the network's enrolment key (as
// `wgo up --enrolment-key` does). Networks are built several at a time, each network's devices several at a time.
import { randomBytes } from "node:crypto";
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { agentCall } from "./failover-network.ts";
import { deviceReporter, type FleetPeer, gatewayReporter, peerEndpoint, type Reporter } from "./fleet-reports.ts";
import { expectCreated, inParallel } from "./seed.ts";

/** 200 networks of 50 devices by default (issue 30); FLEET_NETWORKS / FLEET_DEVICES for a smaller try. */
export const FLEET = { networks: Number(process.env.FLEET_NETWORKS ?? 200), devices: Number(process.env.FLEET_DEVICES ?? 50) };
const NETWORKS_AT_ONCE = Number(process.env.FLEET_NETWORKS_AT_ONCE ?? 16);
const DEVICES_AT_ONCE = Number(process.env.FLEET_DEVICES_AT_ONCE ?? 3);

export interface FleetNetwork {
  id: string;
  devices: Reporter[];
  gateway: Reporter;
}

const key = () => randomBytes(32).toString("base64");
/** A /24 a network, distinct across the group. */
const cidrOf = (i: number) => `10.${64 + (i >> 8)}.${i & 255}.0/24`;

export async function buildFleet(server: WorkerServer, admin: ApiClient): Promise<FleetNetwork[]> {
  const group = await expectCreated("group", () => admin.post("/groups", { name: "fleet" }));
  const region = await expectCreated("region", () => admin.post("/regions", { name: "fleet" }));
  return inParallel(FLEET.networks, NETWORKS_AT_ONCE, (i) => buildNetwork(server, admin, group.id, region.id, i));
}

async function buildNetwork(server: WorkerServer, admin: ApiClient, groupId: string, regionId: string, i: number): Promise<FleetNetwork> {
  const network = await expectCreated("network", () => admin.post("/networks", { groupId, name: `fleet-${i}`, cidr: cidrOf(i) }));
  const gateway = await expectCreated("gateway", () => admin.post("/gateways", { regionId, name: `fleet-gw-${i}` }));
  const gatewayEndpoint = peerEndpoint(i, 0);
  const node = await expectCreated("gateway node", () =>
    admin.post("/nodes", {
      networkId: network.id,
      name: "gw",
      roles: ["gateway"],
      gatewayId: gateway.id,
      endpoint: gatewayEndpoint,
      listenPort: 51820,
    }),
  );
  const gatewayKey = key();
  const credential = await enrolAgent(server, admin, gateway.id, node.id, gatewayKey);
  const enrolment = await expectCreated("enrolment key", () =>
    admin.post(`/networks/${network.id}/enrolment-keys`, { name: "fleet", usageLimit: FLEET.devices }),
  );
  const keys = Array.from({ length: FLEET.devices }, key);
  const enrolled = await inParallel(FLEET.devices, DEVICES_AT_ONCE, (d) =>
    enrolHeadless(server, { enrolmentKey: enrolment.key, name: `d${d}`, publicKey: keys[d], platform: "linux" }),
  );
  // Every enrolment moved the routing revision: the agent reads its desired state once all are in, as its poll would.
  const desired = await agentCall(server, credential, "GET", "/agents/me/desired-state");
  const entry = desired.nodes.find((n: { nodeId: string }) => n.nodeId === node.id);
  const routing = entry.config.routingRevision as number;
  const nodes: FleetPeer[] = [
    { publicKey: gatewayKey, endpoint: gatewayEndpoint },
    ...keys.map((publicKey, d) => ({ publicKey, endpoint: peerEndpoint(i, d + 1) })),
  ];
  const devices = enrolled.map((device, d) =>
    deviceReporter(
      // A synced device applied the network's last revision (its long poll brought it).
      { deviceId: device.device.id, token: device.deviceToken, revision: routing, localEndpoint: `192.168.${i % 250}.${d + 10}:41641` },
      nodes.filter((_, n) => n !== d + 1),
    ),
  );
  const agent = { credential, nodeId: node.id as string, routing, dns: entry.dns.revision as number };
  return { id: network.id, devices, gateway: gatewayReporter(agent, nodes.slice(1)) };
}

/** Enrols the gateway's agent and registers the node's key, as `wgo gateway enrol` and its first round do. */
async function enrolAgent(server: WorkerServer, admin: ApiClient, gatewayId: string, nodeId: string, publicKey: string) {
  const token = await expectCreated("agent token", () => admin.post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId }));
  const enrolled = await agentCall(server, "", "POST", "/agents/enrol", {
    token: token.token,
    name: `fleet-${nodeId}`,
    version: "wgo bench",
  });
  await agentCall(server, enrolled.credential, "PUT", `/agents/me/nodes/${nodeId}`, { publicKey, servesDns: false });
  return enrolled.credential as string;
}

/** POST /client/devices with an enrolment key and no user token; wrangler dev's rare 503 (an isolate restart) is retried. */
async function enrolHeadless(server: WorkerServer, body: Record<string, unknown>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await fetch(`${server.baseUrl}/api/v1/client/devices`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    if (answer.status === 201) return JSON.parse(text);
    if (answer.status !== 503) throw new Error(`enrolling ${body.name}: ${answer.status} ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`enrolling ${body.name}: 503 five times`);
}
