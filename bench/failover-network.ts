// The failover bench's network (issue 27): CHAINS ordered chains, each prober P → pool of two (M1 active, M2
// standby) → C, at the pool limit (100 pools a network). Every node is a gateway node on its own inventory
// gateway; the probers (and chain 0's members, so that pool can fail over) are run by agents that enrol and
// register their keys as `wgo gateway enrol` and `wgo gateway run` do, then read their desired state.
import { randomBytes } from "node:crypto";
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { expectCreated, inParallel } from "./seed.ts";

/** The pool limit of a network (src/routes/gateway-pools: at most 100). */
export const CHAINS = 100;

export interface BenchAgent {
  credential: string;
  nodeId: string;
  /** What its desired state asked of the node: probes, peers' keys, the revisions to report. */
  probes: { target: string; acrossNodeId: string }[];
  peerKeys: string[];
  routing: number;
  dns: number;
}

export interface FailoverNetwork {
  networkId: string;
  pools: { id: string; active: string; standby: string }[];
  probers: BenchAgent[];
  /** Chain 0's members (active, standby), run by agents: reporting, both are healthy, so a probe decides. */
  members: [BenchAgent, BenchAgent];
}

const key = () => randomBytes(32).toString("base64");

/** A gateway node on its own inventory gateway; `withKey` false leaves the key to an agent. */
async function gatewayNode(admin: ApiClient, regionId: string, networkId: string, name: string, withKey: boolean) {
  const gateway = await expectCreated("gateway", () => admin.post("/gateways", { regionId, name: `gw-${name}` }));
  const node = await expectCreated("node", () =>
    admin.post("/nodes", {
      networkId,
      name,
      roles: ["gateway"],
      gatewayId: gateway.id,
      endpoint: "198.51.100.7:51820",
      listenPort: 51820,
      ...(withKey ? { publicKey: key() } : {}),
    }),
  );
  return { gatewayId: gateway.id as string, nodeId: node.id as string };
}

export async function buildFailoverNetwork(server: WorkerServer, admin: ApiClient): Promise<FailoverNetwork> {
  const group = await expectCreated("group", () => admin.post("/groups", { name: "failover-bench" }));
  const network = await expectCreated("network", () =>
    admin.post("/networks", { groupId: group.id, name: "failover", cidr: "10.90.0.0/20" }),
  );
  const region = await expectCreated("region", () => admin.post("/regions", { name: "failover-bench" }));
  const chains = await inParallel(CHAINS, 4, async (i) => ({
    prober: await gatewayNode(admin, region.id, network.id, `p${i}`, false),
    active: await gatewayNode(admin, region.id, network.id, `m${i}a`, i !== 0),
    standby: await gatewayNode(admin, region.id, network.id, `m${i}b`, i !== 0),
    next: await gatewayNode(admin, region.id, network.id, `c${i}`, true),
  }));
  const pools = [];
  for (const [i, chain] of chains.entries()) {
    const pool = await expectCreated("pool", () =>
      admin.post(`/networks/${network.id}/gateway-pools`, {
        name: `hop${i}`,
        members: [
          { nodeId: chain.active.nodeId, priority: 1 },
          { nodeId: chain.standby.nodeId, priority: 2 },
        ],
      }),
    );
    await expectCreated("policy", () =>
      admin.post(`/networks/${network.id}/routing-policies`, {
        name: `chain${i}`,
        type: "via_gateway",
        destinationCidr: `172.20.${i}.0/24`,
        gatewayPath: [chain.prober.nodeId, pool.id, chain.next.nodeId],
      }),
    );
    pools.push({ id: pool.id as string, active: chain.active.nodeId, standby: chain.standby.nodeId });
  }
  const credentials = await inParallel(CHAINS, 4, (i) => enrolAgent(server, admin, chains[i]!.prober));
  credentials.push(await enrolAgent(server, admin, chains[0]!.active), await enrolAgent(server, admin, chains[0]!.standby));
  // Every key registered bumps the revision: each agent reads its desired state once all are in, as a poll would.
  const agents = await inParallel(credentials.length, 4, (i) => readDesiredState(server, credentials[i]!));
  return { networkId: network.id, pools, probers: agents.slice(0, CHAINS), members: [agents[CHAINS]!, agents[CHAINS + 1]!] };
}

/** Enrols an agent for the node's gateway and registers the node's key, as `wgo gateway enrol` and its first round do. */
async function enrolAgent(server: WorkerServer, admin: ApiClient, node: { gatewayId: string; nodeId: string }) {
  const token = await expectCreated("token", () =>
    admin.post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: node.gatewayId }),
  );
  const enrolled = await agentCall(server, "", "POST", "/agents/enrol", {
    token: token.token,
    name: `bench-${node.nodeId}`,
    version: "wgo bench",
  });
  const credential = enrolled.credential as string;
  await agentCall(server, credential, "PUT", `/agents/me/nodes/${node.nodeId}`, { publicKey: key(), servesDns: false });
  return { credential, nodeId: node.nodeId };
}

/** What the agent's node is asked for now: its probes, its peers, the revisions it then holds. */
async function readDesiredState(server: WorkerServer, { credential, nodeId }: { credential: string; nodeId: string }): Promise<BenchAgent> {
  const desired = await agentCall(server, credential, "GET", "/agents/me/desired-state");
  const entry = desired.nodes.find((n: { nodeId: string }) => n.nodeId === nodeId);
  if (!entry?.config) throw new Error(`no config for ${nodeId} in its agent's desired state`);
  return {
    credential,
    nodeId,
    probes: entry.probes,
    peerKeys: entry.config.peers.map((peer: { publicKey: string }) => peer.publicKey),
    routing: entry.config.routingRevision,
    dns: entry.dns.revision,
  };
}

/** One agent API call with its credential (empty: none); a non-2xx answer throws with the body. */
export async function agentCall(server: WorkerServer, credential: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(credential ? { Authorization: `Bearer ${credential}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
