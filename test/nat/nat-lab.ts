import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGateway, enrolDevice, type Enrolled, networkSetup, type Session, unique } from "../helpers/factories";
import { networkWriter } from "../../src/objects/network/client";

/**
 * A network for NAT-path tests (docs/nat.md): two laptops that only dial out, and a public relay gateway node
 * whose daemon reports what it sees. Reports are what the real clients send: a device's heartbeat with its LAN
 * endpoints and its peers (the 5th field: where it heard each one), a daemon's report with a delta peer report.
 */
export async function natNetwork() {
  const { admin, network, as } = await networkSetup();
  const relay = await relayNode(admin, network.id, "relay-1", "198.51.100.50:51820");
  const a = await enrolDevice(admin, { networkId: network.id, name: "laptop-a" });
  const b = await enrolDevice(admin, { networkId: network.id, name: "laptop-b" });
  return { admin, network, relay, a, b, as };
}

export async function relayNode(admin: Session, networkId: string, name: string, endpoint: string) {
  const gateway = await createGateway(admin);
  const publicKey = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const created = await post(
    "/nodes",
    { networkId, name, publicKey, roles: ["gateway"], gatewayId: gateway.id, endpoint, relay: true },
    admin.token,
  );
  expect(created.status, created.text).toBe(201);
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: gateway.id }, admin.token);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(enrolled.status, enrolled.text).toBe(201);
  return {
    node: created.body as { id: string; publicKey: string; name: string; address: string },
    credential: enrolled.body.credential as string,
    gatewayId: gateway.id,
  };
}

export const seconds = (ms: number) => Math.floor(ms / 1000);
export const revisionOf = async (networkId: string, token: string) =>
  (await get(`/networks/${networkId}`, token)).body.routingRevision as number;

export interface SeenPeer {
  publicKey: string;
  /** ms; null: never */
  handshakeAt: number | null;
  endpoint?: string;
}

/** A device's heartbeat as wgo sends it; `from`: the address it arrives from (CF-Connecting-IP). */
export async function heartbeat(
  device: Enrolled,
  appliedRevision: number,
  peers: SeenPeer[],
  extra: { localEndpoints?: string[]; from?: string } = {},
) {
  const response = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
    token: device.deviceToken,
    body: {
      appliedRevision,
      ...(extra.localEndpoints ? { localEndpoints: extra.localEndpoints } : {}),
      peers: peers.map((peer) => ({
        publicKey: peer.publicKey,
        lastHandshakeAt: peer.handshakeAt === null ? null : new Date(peer.handshakeAt).toISOString(),
        rxBytes: 100,
        txBytes: 100,
        ...(peer.endpoint ? { endpoint: peer.endpoint } : {}),
      })),
    },
    ...(extra.from ? { headers: { "CF-Connecting-IP": extra.from } } : {}),
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** A gateway daemon's report of its node, with a full delta peer report (5-tuples where it heard the peer). */
export async function daemonReport(relay: { node: { id: string }; credential: string }, appliedRoutingRevision: number, peers: SeenPeer[]) {
  const changed = peers.map((peer) => [
    peer.publicKey,
    peer.handshakeAt === null ? 0 : seconds(peer.handshakeAt),
    10,
    10,
    ...(peer.endpoint ? [peer.endpoint] : []),
  ]);
  const response = await post(
    "/agents/me/report",
    { nodes: [{ nodeId: relay.node.id, appliedRoutingRevision, peerReport: { base: null, changed, removed: [], more: false } }] },
    relay.credential,
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

export const keyOf = (device: Enrolled) => device.body.node.publicKey as string;
export const configOf = async (nodeId: string, token: string) => (await get(`/nodes/${nodeId}/config`, token)).body;
export const peerIn = (config: { peers: { nodeId: string }[] }, nodeId: string) =>
  config.peers.find((peer) => peer.nodeId === nodeId) as
    | { endpoint: string | null; allowedIps: string[]; persistentKeepalive: number | null }
    | undefined;

/** The writer's NAT check at a chosen clock (its alarm runs the same at the real one). */
export const checkAt = async (networkId: string, now: number) => {
  const result = await networkWriter(env, networkId).checkNatPaths(networkId, now);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
};

export const auditRoutes = async (networkId: string) =>
  (
    await env.DB.prepare("SELECT route, params FROM audit_events WHERE network_id = ? AND route LIKE 'nat.%' ORDER BY created_at, rowid")
      .bind(networkId)
      .all<{ route: string; params: string }>()
  ).results.map((row) => ({ route: row.route, ...JSON.parse(row.params) }));

/**
 * Laptops A and B of a natNetwork find no direct path: the relay's daemon sees both after NAT, and both report a
 * live session with the relay and none with each other. A check past the timeout (checkAt) moves them onto it.
 */
export async function strandPair(lab: Awaited<ReturnType<typeof natNetwork>>) {
  const { admin, network, relay, a, b } = lab;
  await daemonReport(relay, await revisionOf(network.id, admin.token), [
    { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" },
    { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "198.51.100.88:40002" },
  ]);
  const revision = await revisionOf(network.id, admin.token);
  const toRelay = { publicKey: relay.node.publicKey, handshakeAt: Date.now(), endpoint: "198.51.100.50:51820" };
  await Promise.all([heartbeat(a, revision, [toRelay]), heartbeat(b, revision, [toRelay])]);
  return { revision, toRelay };
}
