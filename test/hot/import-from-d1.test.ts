// Upgrading a populated deployment (issue 30): what heartbeats and agents wrote to D1 before the hot state
// moved into each network's object comes over on the object's first use, with no step to run and nothing
// lost: the device's liveness and reported endpoint, every tunnel row (same ids), and the peer-report
// sequence a device's next delta builds on.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { enrolDevice, fakePublicKey, gatewayNetwork, signInAdmin } from "../helpers/factories";

const beat = (deviceId: string, token: string, body: unknown) => call("POST", `/client/devices/${deviceId}/heartbeat`, { token, body });

describe("hot state of an existing deployment", () => {
  it("moves from D1 into the network's object on first use: liveness, endpoint, tunnels and the delta sequence", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const device = await enrolDevice(admin, { networkId: network.id });
    const peer = await enrolDevice(admin, { networkId: network.id });
    const seenAt = new Date(Date.now() - 5_000).toISOString();
    // What the previous release wrote on each beat.
    await env.DB.batch([
      env.DB.prepare("UPDATE nodes SET last_seen_at = ?, applied_routing_revision = ?, peer_report_seq = 7 WHERE id = ?").bind(
        seenAt,
        device.body.config.routingRevision,
        device.nodeId,
      ),
      env.DB.prepare("UPDATE devices SET reported_endpoint = '198.51.100.4:40001' WHERE id = ?").bind(device.deviceId),
      ...[peer.body.node.publicKey, fakePublicKey(), fakePublicKey()].map((key, index) =>
        env.DB.prepare(
          "INSERT INTO tunnel_observations (id, network_id, from_node_id, peer_public_key, last_handshake_at, endpoint, rx_bytes, tx_bytes, reported_at, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
        ).bind(`tun_old${index}`, network.id, device.nodeId, key, seenAt, 100 + index, 200 + index, seenAt, seenAt),
      ),
    ]);

    const shown = (await get(`/devices/${device.deviceId}`, admin.token)).body;
    expect(shown).toMatchObject({
      lastSeenAt: seenAt,
      status: "online",
      appliedRevision: device.body.config.routingRevision,
      reportedEndpoint: "198.51.100.4:40001",
    });
    const tunnels = (await get(`/tunnels?networkId=${network.id}`, admin.token)).body.items;
    expect(tunnels.map((row: { id: string }) => row.id).sort()).toEqual(["tun_old0", "tun_old1", "tun_old2"]);
    expect(tunnels.find((row: { id: string }) => row.id === "tun_old0")).toMatchObject({
      toNodeId: peer.nodeId,
      rxBytes: 100,
      txBytes: 200,
    });
    // D1 keeps no copy: nothing writes those rows any more.
    const left = await env.DB.prepare("SELECT count(*) AS n FROM tunnel_observations WHERE network_id = ?")
      .bind(network.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    // The device's next delta builds on the sequence the old release answered: accepted, no resync.
    const next = await beat(device.deviceId, device.deviceToken, {
      appliedRevision: device.body.config.routingRevision,
      peerReport: { base: 7, changed: [[peer.body.node.publicKey, Math.floor(Date.now() / 1000), 150, 250]], removed: [], more: false },
    });
    expect(next.status).toBe(200);
    expect(next.body.peerReport).toEqual({ seq: 8, resync: false });
    const after = (await get(`/tunnels?networkId=${network.id}&nodeId=${peer.nodeId}`, admin.token)).body.items;
    expect(after).toEqual([expect.objectContaining({ id: "tun_old0", rxBytes: 150, txBytes: 250 })]);
  });
});
