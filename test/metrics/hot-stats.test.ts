// Issue 30: /metrics reads device nodes' presence, beat ages and the tunnels from the rows the networks' objects
// write to D1 on their presence check (network_hot_stats), not from D1 columns the beats no longer write.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { enrolDevice, networkSetup } from "../helpers/factories";
import { checkPresence } from "../helpers/hot-presence";
import { histogramOf, sampleValue, scrape, secondsAgo } from "./support";

describe("/metrics from the networks' objects", { timeout: 60_000 }, () => {
  it("counts a beating device online, in the fresh heartbeat bucket, with its tunnels, after the object's check", async () => {
    const { admin, network } = await networkSetup();
    const a = await enrolDevice(admin, { networkId: network.id });
    const b = await enrolDevice(admin, { networkId: network.id });
    const desired = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision as number;
    const keyOfB = (await get(`/nodes/${b.nodeId}`, admin.token)).body.publicKey as string;
    const peers = [{ publicKey: keyOfB, lastHandshakeAt: secondsAgo(20), rxBytes: 1, txBytes: 2 }];
    const beat = await call("POST", `/client/devices/${a.deviceId}/heartbeat`, {
      token: a.deviceToken,
      body: { appliedRevision: desired, peers },
    });
    expect(beat.status).toBe(200);

    expect((await checkPresence(network.id)).statsWritten).toBe(true);
    const scraped = await scrape(admin.token);
    const net = { network_id: network.id };
    expect(sampleValue(scraped, "wgo_network_nodes_online", net)).toBe(1);
    expect(sampleValue(scraped, "wgo_network_nodes_unreported", net)).toBe(1); // b never beat
    const heartbeats = histogramOf(scraped, "wgo_node_heartbeat_age_seconds", net);
    expect(heartbeats).toMatchObject({ count: 1, buckets: { "30": 1, "+Inf": 1 } });
    expect(sampleValue(scraped, "wgo_network_tunnel_ends", net)).toBe(1);
    expect(histogramOf(scraped, "wgo_tunnel_handshake_age_seconds", net)).toMatchObject({ count: 1, buckets: { "60": 1 } });
    expect(sampleValue(scraped, "wgo_network_peer_paths", { ...net, path: "direct" })).toBe(1);

    // Nothing changed since: the check writes no row (one per network, only on change).
    const before = await env.DB.prepare("SELECT computed_at AS at FROM network_hot_stats WHERE network_id = ?").bind(network.id).first();
    expect((await checkPresence(network.id)).statsWritten).toBe(false);
    const after = await env.DB.prepare("SELECT computed_at AS at FROM network_hot_stats WHERE network_id = ?").bind(network.id).first();
    expect(after).toEqual(before);
  });
});
