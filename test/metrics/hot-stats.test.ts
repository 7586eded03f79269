// Issue 30: /metrics reads device nodes' presence, beat ages and the tunnels from the rows the networks' objects
// write to D1 on their presence check (network_hot_stats), not from D1 columns the beats no longer write.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { enrolDevice, networkSetup } from "../helpers/factories";
import { checkPresence, writerOf } from "../helpers/hot-presence";
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

    await checkPresence(network.id); // (or its alarm, 5 s after a first beat: either writes the row)
    const scraped = await scrape(admin.token);
    const net = { network_id: network.id };
    expect(sampleValue(scraped, "wgo_network_nodes_online", net)).toBe(1);
    expect(sampleValue(scraped, "wgo_network_nodes_unreported", net)).toBe(1); // b never beat
    const heartbeats = histogramOf(scraped, "wgo_node_heartbeat_age_seconds", net);
    expect(heartbeats).toMatchObject({ count: 1, buckets: { "30": 1, "+Inf": 1 } });
    expect(sampleValue(scraped, "wgo_network_tunnel_ends", net)).toBe(1);
    expect(histogramOf(scraped, "wgo_tunnel_handshake_age_seconds", net)).toMatchObject({ count: 1, buckets: { "60": 1 } });
    expect(sampleValue(scraped, "wgo_network_peer_paths", { ...net, path: "direct" })).toBe(1);
  });

  it("costs D1 rows only for transitions and a changed figure: a steadily beating network writes at most its one row a check", async () => {
    const { admin, network } = await networkSetup();
    const DEVICES = 20;
    const devices: Awaited<ReturnType<typeof enrolDevice>>[] = [];
    for (let index = 0; index < DEVICES; index++) devices.push(await enrolDevice(admin, { networkId: network.id }));
    const desired = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision as number;
    const beatAll = async () => {
      for (const device of devices) {
        const beat = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
          token: device.deviceToken,
          body: { appliedRevision: desired },
        });
        expect(beat.status).toBe(200);
      }
    };
    const rowsWritten = async (work: () => Promise<unknown>) => {
      const before = (await writerOf(network.id).stats()).rowsWritten;
      await work();
      return (await writerOf(network.id).stats()).rowsWritten - before;
    };
    const beats = await rowsWritten(beatAll);
    const firstSightings = await rowsWritten(() => checkPresence(network.id));
    await beatAll();
    // Judged at one clock, so that nothing but the beats moved; a real minute later the ages have moved too.
    const clock = Date.now();
    const steady = await rowsWritten(() => checkPresence(network.id, clock));
    const unchanged = await rowsWritten(() => checkPresence(network.id, clock));
    console.info(JSON.stringify({ devices: DEVICES, beats, firstSightings, steady, unchanged }));
    expect(beats).toBe(0);
    expect(firstSightings).toBeGreaterThanOrEqual(2 * DEVICES); // a presence row and last_seen_at each, then the stats row
    expect(steady).toBeLessThanOrEqual(1); // no transition: at most the network's stats row
    expect(unchanged).toBe(0);
  });
});
