import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { get, post } from "../helpers/api";
import { enrolDevice, networkSetup, type Session, unique } from "../helpers/factories";

/** A network with four gateway nodes gw1..gw4 (each on its own active inventory gateway). */
export async function poolNetwork() {
  const setup = await networkSetup({ gateways: 4 });
  const [gw1, gw2, gw3, gw4] = setup.hops as unknown as [GwNode, GwNode, GwNode, GwNode];
  return { ...setup, gw1, gw2, gw3, gw4 };
}
export interface GwNode {
  id: string;
  address: string;
  gatewayId: string;
}

export async function createPool(token: string, networkId: string, members: { nodeId: string; priority: number }[], extra = {}) {
  const created = await post(`/networks/${networkId}/gateway-pools`, { name: unique("pool"), members, ...extra }, token);
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; activeNodeId: string; members: { nodeId: string }[] };
}

export async function createPolicy(token: string, networkId: string, gatewayPath: string[], destinationCidr = "172.30.0.0/16") {
  const created = await post(
    `/networks/${networkId}/routing-policies`,
    { name: unique("p"), type: "via_gateway", destinationCidr, gatewayPath },
    token,
  );
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string };
}

/** A node's last report, written straight into D1 (reports are what make a member fresh). */
export async function setSeen(nodeIds: string[], secondsAgo: number | null) {
  const at = secondsAgo === null ? null : new Date(Date.now() - secondsAgo * 1000).toISOString();
  await env.DB.batch(nodeIds.map((id) => env.DB.prepare("UPDATE nodes SET last_seen_at = ? WHERE id = ?").bind(at, id)));
}

export const poolOf = async (poolId: string, token: string) => {
  const answer = await get(`/gateway-pools/${poolId}`, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};

export const routingRevision = async (networkId: string, token: string) =>
  (await get(`/networks/${networkId}`, token)).body.routingRevision as number;

export const configOf = async (nodeId: string, token: string) => (await get(`/nodes/${nodeId}/config`, token)).body;

/** The peer entry for `peerId` in a node's config: its AllowedIPs say what that node routes through it. */
export const allowedVia = (config: { peers: { nodeId: string; allowedIps: string[] }[] }, peerId: string) =>
  config.peers.find((peer) => peer.nodeId === peerId)?.allowedIps ?? null;

export const DESTINATION = "172.30.0.0/16";

/** gw1 -> pool(gw2 preferred, gw3) -> gw4, every gateway fresh, and a device routing through it. */
export async function chain(extra = {}) {
  const setup = await poolNetwork();
  const { admin, network, gw1, gw2, gw3, gw4 } = setup;
  const pool = await createPool(
    admin.token,
    network.id,
    [
      { nodeId: gw2.id, priority: 1 },
      { nodeId: gw3.id, priority: 2 },
    ],
    extra,
  );
  const policy = await createPolicy(admin.token, network.id, [gw1.id, pool.id, gw4.id], DESTINATION);
  const device = await enrolDevice(admin, { networkId: network.id });
  await setSeen([gw1.id, gw2.id, gw3.id, gw4.id], 0);
  return { ...setup, pool, policy, device };
}

/** A gateway daemon agent of an inventory gateway: its credential. */
export async function enrolDaemon(admin: Session, gatewayId: string) {
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId }, admin.token);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(enrolled.status, enrolled.text).toBe(201);
  return enrolled.body.credential as string;
}
