// Issue 24 item 4: a device's presence, drift and enrolment are its owner's detail (docs/security.md, "Device
// nodes"). Events about a device node reach its owner, the group's owners and admins; other members and
// viewers hear only of nodes that are no device.
import { describe, expect, it } from "vitest";
import { addMember, createUser, enrolDevice, type Session } from "../helpers/factories";
import { deliveriesOf, ownerWithNode, setNodeSeen, webhookChannel } from "./support/notify-helpers";
import { runCron } from "./support/receiver";
import { checkPresence, setDeviceSeen, startDeviceDriftClock } from "../helpers/hot-presence";

const EVENTS = ["node.offline", "config.drift", "device.enrolled"];
const heard = async (session: Session) =>
  (await deliveriesOf(session)).map((delivery) => `${delivery.event.type}:${delivery.event.subjectId}`).sort();

describe("notifications about a device node", { timeout: 60_000 }, () => {
  it("reach its owner, the group's owners and admins; other members and viewers hear only of nodes that are no device", async () => {
    const { admin, owner, group, network, node: server } = await ownerWithNode();
    const [alice, bob, viewer, groupAdmin] = [
      await createUser(admin),
      await createUser(admin),
      await createUser(admin),
      await createUser(admin),
    ];
    await addMember(group.id, alice, "member");
    await addMember(group.id, bob, "member");
    await addMember(group.id, viewer, "viewer");
    await addMember(group.id, groupAdmin, "admin");
    for (const session of [owner, alice, bob, viewer, groupAdmin]) await webhookChannel(session, EVENTS);

    const device = await enrolDevice(alice, { networkId: network.id });
    // Device A: online and behind the network's revision for an hour (drift); the server: silent an hour (offline).
    // The device's presence and drift are judged by its network's object, the server's by the cron.
    await setDeviceSeen(network.id, device.nodeId, 5, 0);
    await setNodeSeen(server.id, 3600);
    await runCron();
    await checkPresence(network.id);
    await startDeviceDriftClock(network.id, device.nodeId, 3600);
    await runCron();
    await checkPresence(network.id);

    const aboutDevice = [`config.drift:${device.nodeId}`, `device.enrolled:${device.deviceId}`];
    const aboutServer = [`node.offline:${server.id}`];
    for (const [name, session] of [
      ["owner", owner],
      ["alice", alice],
      ["groupAdmin", groupAdmin],
    ] as const) {
      expect({ name, heard: await heard(session) }).toEqual({ name, heard: [...aboutDevice, ...aboutServer].sort() });
    }
    for (const [name, session] of [
      ["bob", bob],
      ["viewer", viewer],
    ] as const) {
      expect({ name, heard: await heard(session) }).toEqual({ name, heard: aboutServer });
    }

    // Gone silent: node.offline about the device, to the same readers only.
    await setDeviceSeen(network.id, device.nodeId, 3600);
    await checkPresence(network.id);
    expect(await heard(alice)).toContain(`node.offline:${device.nodeId}`);
    expect(await heard(groupAdmin)).toContain(`node.offline:${device.nodeId}`);
    expect(await heard(bob)).toEqual(aboutServer);
  });
});
