// Issue 30: device heartbeats no longer write D1, so a device's presence and drift are judged by its network's
// object from the beats it holds (objects/network/clocks/presence-clock.ts), which writes D1 only transitions:
// the node_presence row, nodes.last_seen_at as of the transition, and the cron's events with their dedupe keys.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { networkWriter } from "../../src/objects/network/client";
import { enrolDevice } from "../helpers/factories";
import { checkPresence, objectPresence, setDeviceSeen, startDeviceDriftClock, writerOf } from "../helpers/hot-presence";
import { ownerWithNode, webhookChannel } from "./support/notify-helpers";
import { received, receivedAtLeast, runCron } from "./support/receiver";

const beat = (device: { deviceId: string; deviceToken: string }, appliedRevision: number) =>
  call("POST", `/client/devices/${device.deviceId}/heartbeat`, { token: device.deviceToken, body: { appliedRevision } });
const d1Presence = (nodeId: string) =>
  env.DB.prepare("SELECT p.state, n.last_seen_at AS lastSeenAt FROM nodes n LEFT JOIN node_presence p ON p.node_id = n.id WHERE n.id = ?")
    .bind(nodeId)
    .first<{ state: string | null; lastSeenAt: string | null }>();
const types = async (hookId: string) => (await received(hookId)).map((entry) => JSON.parse(entry.body).type as string);

describe("a device's presence, judged by its network's object", { timeout: 60_000 }, () => {
  it("a beating device is online silently; silent past OFFLINE_AFTER, node.offline once; beating again, node.online once", async () => {
    const { owner, network } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["node.offline", "node.online"]);
    const device = await enrolDevice(owner, { networkId: network.id });
    const revision = (await get(`/networks/${network.id}`, owner.token)).body.routingRevision as number;
    expect((await beat(device, revision)).status).toBe(200);
    expect(await d1Presence(device.nodeId)).toEqual({ state: null, lastSeenAt: null }); // the beat wrote no D1 row

    // First sighting: recorded, silent (by this check, or by the alarm the beat set 5 s out if a loaded machine was slower).
    const first = await checkPresence(network.id);
    expect(first.nextCheckAt).not.toBeNull(); // a device is online: the check keeps its clock
    const online = await d1Presence(device.nodeId);
    expect(online!.state).toBe("online");
    expect(online!.lastSeenAt).not.toBeNull();
    expect((await checkPresence(network.id)).transitions).toBe(0); // nothing changed: nothing written
    await runCron(); // the cron leaves device nodes alone
    expect(await received(hook.id)).toEqual([]);

    await setDeviceSeen(network.id, device.nodeId, 3600);
    const offline = await checkPresence(network.id);
    expect(offline).toMatchObject({ transitions: 1, events: 1, nextCheckAt: null }); // nobody online: no clock
    // The writer's stats count what its checks wrote to D1 (the fleet bench sums them): the first sighting, the offline.
    expect((await networkWriter(env, network.id).stats()).presenceTransitions).toBe(2);
    await checkPresence(network.id);
    await runCron();
    const [delivery] = await receivedAtLeast(hook.id, 1);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({
      type: "node.offline",
      subjectId: device.nodeId,
      data: { node: { id: device.nodeId, deviceId: device.deviceId } },
    });
    // D1 keeps the verdict and the beat it rests on.
    expect(await d1Presence(device.nodeId)).toEqual({ state: "offline", lastSeenAt: body.data.lastSeenAt });
    expect(await types(hook.id)).toEqual(["node.offline"]);

    // A beat from a node held offline brings the object's alarm forward; the alarm's own run announces it.
    expect((await beat(device, revision)).status).toBe(200);
    expect(await runDurableObjectAlarm(writerOf(network.id))).toBe(true);
    await receivedAtLeast(hook.id, 2);
    expect(await types(hook.id)).toEqual(["node.offline", "node.online"]);
    expect((await d1Presence(device.nodeId))!.state).toBe("online");
  });

  it("config.drift once per desired revision for a device behind its network, from the object's drift clock", async () => {
    const { owner, network } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["config.drift"]);
    const device = await enrolDevice(owner, { networkId: network.id });
    expect((await beat(device, 0)).status).toBe(200);
    await checkPresence(network.id);
    expect((await objectPresence(network.id, device.nodeId))!.behindSince).not.toBeNull(); // the clock runs

    await startDeviceDriftClock(network.id, device.nodeId, 3600);
    expect((await checkPresence(network.id)).events).toBe(1);
    expect((await checkPresence(network.id)).events).toBe(0);
    const [delivery] = await receivedAtLeast(hook.id, 1);
    const desired = (await get(`/networks/${network.id}`, owner.token)).body.routingRevision as number;
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: "config.drift",
      subjectId: device.nodeId,
      data: { desiredRevision: desired, appliedRevision: 0 },
    });

    expect((await beat(device, desired)).status).toBe(200); // caught up: the clock stops
    await checkPresence(network.id);
    expect((await objectPresence(network.id, device.nodeId))!.behindSince).toBeNull();
    expect(await received(hook.id)).toHaveLength(1);
  });

  it("on an upgrade the cron hands a device it last saw online to the object, once: silent since, it is announced offline", async () => {
    const { owner, network } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["node.offline", "node.online"]);
    const device = await enrolDevice(owner, { networkId: network.id });
    // What the cron and D1 heartbeats left before the upgrade: the device's last beat an hour ago, judged online.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("UPDATE nodes SET last_seen_at = ? WHERE id = ?").bind(hourAgo, device.nodeId),
      env.DB.prepare("INSERT INTO node_presence (node_id, state, changed_at, updated_at) VALUES (?, 'online', ?, ?)").bind(
        device.nodeId,
        hourAgo,
        hourAgo,
      ),
    ]);
    await runCron(); // no beat will wake the object: the cron asks it for one check
    await receivedAtLeast(hook.id, 1);
    expect(await types(hook.id)).toEqual(["node.offline"]);
    expect((await objectPresence(network.id, device.nodeId))!.state).toBe("offline");
    const stats = await env.DB.prepare("SELECT 1 AS one FROM network_hot_stats WHERE network_id = ?").bind(network.id).first();
    expect(stats).not.toBeNull(); // the object has checked: the cron leaves the network to it
    await runCron();
    expect(await types(hook.id)).toEqual(["node.offline"]);
  });
});
