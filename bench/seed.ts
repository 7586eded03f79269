// Builds the data the HTTP benchmark reads and writes, through the API itself.
import { execFileSync } from "node:child_process";
import { api, login, type ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";

export interface Seeded {
  admin: ApiClient;
  token: string;
  networkId: string;
  gatewayNodeId: string;
  sourceNodeId: string;
  device: { id: string; token: string; revision: number };
  /** More devices of the main network, for heartbeats from a fleet rather than from one device. */
  fleet: { id: string; token: string }[];
}

const publicKey = () => execFileSync("sh", ["-c", "wg genkey | wg pubkey"]).toString().trim();

export async function inParallel<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => make(start + k)))));
  }
  return results;
}

type Answer = { status: number; body: any; text: string };

/**
 * wrangler dev's proxy sometimes closes a keep-alive socket under a request ("other side closed").
 * Seeding retries then; a 409 on a retry means the first attempt did land (names are unique).
 */
export async function expectCreated(what: string, send: () => Promise<Answer>) {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await send();
      if (response.status === 409 && attempt > 0) return null;
      if (response.status !== 201) throw new Error(`seeding ${what}: ${response.status} ${response.text}`);
      return response.body;
    } catch (error) {
      const socketClosed = (error as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET";
      if (!socketClosed || attempt >= 3) throw error;
    }
  }
}

/** A network of `nodes` plain nodes, one gateway, `policies` policies through it and `records` DNS records. */
export async function seedNetwork(admin: ApiClient, cidr: string, sizes: { nodes: number; policies: number; records: number }) {
  const group = await expectCreated("group", () => admin.post("/groups", { name: `bench-${cidr}` }));
  const network = await expectCreated("network", () => admin.post("/networks", { groupId: group.id, name: "bench", cidr }));
  const region = await expectCreated("region", () => admin.post("/regions", { name: `r-${cidr}` }));
  const gateway = await expectCreated("gateway", () => admin.post("/gateways", { regionId: region.id, name: `g-${cidr}` }));
  const gatewayNode = await expectCreated("gateway node", () =>
    admin.post("/nodes", {
      networkId: network.id,
      name: "gw",
      publicKey: publicKey(),
      endpoint: "198.51.100.1:51820",
      roles: ["gateway"],
      gatewayId: gateway.id,
    }),
  );
  const keys = Array.from({ length: sizes.nodes }, publicKey);
  await inParallel(sizes.nodes, 8, (i) =>
    expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: `n${i}`, publicKey: keys[i] })),
  );
  await inParallel(sizes.policies, 8, (i) =>
    expectCreated("policy", () =>
      admin.post(`/networks/${network.id}/routing-policies`, {
        name: `p${i}`,
        type: "via_gateway",
        destinationCidr: `172.16.${i >> 8}.${i & 255}/32`,
        gatewayPath: [gatewayNode.id],
      }),
    ),
  );
  await inParallel(sizes.records, 8, (i) =>
    expectCreated("record", () =>
      admin.post(`/networks/${network.id}/dns/records`, {
        name: `h${i}`,
        type: "A",
        value: `192.0.2.${i % 250}`,
      }),
    ),
  );
  const [source] = (await admin.get(`/nodes?networkId=${network.id}&limit=2`)).body.items.filter((node: any) => node.roles.length === 0);
  return { networkId: network.id as string, gatewayNodeId: gatewayNode.id as string, sourceNodeId: source.id as string };
}

export const FLEET_SIZE = 64;

export async function seed(server: WorkerServer): Promise<Seeded> {
  const token = await login(server.baseUrl, server.admin);
  const admin = api(server.baseUrl, token);
  const main = await seedNetwork(admin, "10.200.0.0/16", { nodes: 200, policies: 20, records: 300 });
  const enrolled = await expectCreated("device", () =>
    admin.post("/client/devices", { networkId: main.networkId, name: "bench-device", publicKey: publicKey() }),
  );
  const fleet = await inParallel(FLEET_SIZE, 8, async (i) => {
    const member = await expectCreated("fleet device", () =>
      admin.post("/client/devices", { networkId: main.networkId, name: `fleet-${i}`, publicKey: publicKey() }),
    );
    return { id: member.device.id as string, token: member.deviceToken as string };
  });
  return {
    admin,
    token,
    ...main,
    device: { id: enrolled.device.id, token: enrolled.deviceToken, revision: enrolled.config.routingRevision },
    fleet,
  };
}
