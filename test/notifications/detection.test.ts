import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { patch } from "../helpers/api";
import { addMember, assignGateway, createGateway, createNode, createUser } from "../helpers/factories";
import { deliveriesOf, ownerWithNode, setNodeSeen, startDriftClock, webhookChannel } from "./support/notify-helpers";
import { received, runCron } from "./support/receiver";

const types = async (hookId: string) =>
  (await received(hookId)).map((entry) => {
    const body = JSON.parse(entry.body);
    return `${body.type}:${body.subjectId}`;
  });

describe("scheduled detection: node presence", () => {
  it("node.offline once when heartbeats stop, node.online once when they resume", async () => {
    const { owner, node } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["node.offline", "node.online"]);
    await setNodeSeen(node.id, 30);
    await runCron(); // first sighting, online: recorded silently
    expect(await received(hook.id)).toEqual([]);

    await setNodeSeen(node.id, 3600);
    await runCron();
    await runCron();
    expect(await types(hook.id)).toEqual([`node.offline:${node.id}`]);

    await setNodeSeen(node.id, 1);
    await runCron();
    await runCron();
    expect(await types(hook.id)).toEqual([`node.offline:${node.id}`, `node.online:${node.id}`]);
    expect((await received(hook.id)).every((entry) => entry.verified)).toBe(true);
  });

  it("a node that never reported is never announced; one first seen long ago is announced offline", async () => {
    const { owner, network } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["node.offline", "node.online"]);
    const silent = await createNode(owner, network.id);
    const stale = await createNode(owner, network.id);
    await setNodeSeen(stale.id, 7200);
    await runCron();
    expect(await types(hook.id)).toEqual([`node.offline:${stale.id}`]);
    expect(await types(hook.id)).not.toContain(`node.offline:${silent.id}`);
  });

  it("events reach every member of the network's group (any role) and nobody outside it", async () => {
    const { admin, owner, group, node } = await ownerWithNode();
    const viewer = await createUser(admin);
    const outsider = await createUser(admin);
    await addMember(group.id, viewer, "viewer");
    const forViewer = await webhookChannel(viewer, ["node.offline"]);
    const forOutsider = await webhookChannel(outsider, ["node.offline"]);
    const unsubscribed = await webhookChannel(owner, ["node.online"]);
    await setNodeSeen(node.id, 3600);
    await runCron();
    expect(await types(forViewer.hook.id)).toEqual([`node.offline:${node.id}`]);
    expect(await received(forOutsider.hook.id)).toEqual([]);
    expect(await received(unsubscribed.hook.id)).toEqual([]);
    expect(await deliveriesOf(outsider)).toEqual([]);
  });

  it("disabled channels receive nothing", async () => {
    const { owner, node } = await ownerWithNode();
    const { hook, channel } = await webhookChannel(owner, ["node.offline"]);
    await patch(`/notifications/channels/${channel.id}`, { enabled: false }, owner.token);
    await setNodeSeen(node.id, 3600);
    await runCron();
    expect(await received(hook.id)).toEqual([]);
  });
});

describe("scheduled detection: gateways", () => {
  async function gatewaySetup() {
    const { admin, owner, network } = await ownerWithNode();
    const inventory = await createGateway(admin);
    // A platform admin adds the gateway and assigns it to the group; the group owner adds the nodes.
    await assignGateway(admin, network.groupId, { gatewayId: inventory.id });
    const a = await createNode(owner, network.id, { gatewayId: inventory.id, endpoint: "198.51.100.10:51820" });
    const b = await createNode(owner, network.id, { gatewayId: inventory.id, endpoint: "198.51.100.11:51820" });
    const { hook } = await webhookChannel(owner, ["gateway.down", "gateway.up"]);
    return { admin, owner, network, inventory, a, b, hook };
  }

  it("down when every gateway node on it is offline, up again when one reports", async () => {
    const { inventory, a, b, hook, network } = await gatewaySetup();
    await setNodeSeen(a.id, 10);
    await setNodeSeen(b.id, 7200);
    await runCron(); // one node online: up, recorded silently
    expect(await received(hook.id)).toEqual([]);

    await setNodeSeen(a.id, 3600);
    await runCron();
    await runCron();
    expect(await types(hook.id)).toEqual([`gateway.down:${inventory.id}`]);
    const down = JSON.parse((await received(hook.id))[0]!.body);
    expect(down).toMatchObject({
      networkId: network.id,
      data: { gateway: { id: inventory.id, status: "active" }, reason: "nodes_offline" },
    });
    expect(down.data.nodeIds.sort()).toEqual([a.id, b.id].sort());

    await setNodeSeen(b.id, 2);
    await runCron();
    expect(await types(hook.id)).toEqual([`gateway.down:${inventory.id}`, `gateway.up:${inventory.id}`]);
  });

  it("down when the inventory disables it, even with nodes online", async () => {
    const { admin, inventory, a, hook } = await gatewaySetup();
    await setNodeSeen(a.id, 5);
    await runCron();
    expect((await patch(`/gateways/${inventory.id}`, { status: "disabled" }, admin.token)).status).toBe(200);
    await runCron();
    const [entry] = await received(hook.id);
    expect(JSON.parse(entry!.body).data).toMatchObject({ reason: "disabled", gateway: { status: "disabled" } });
  });
  it("down when its gateway-manager reports health down", async () => {
    const { inventory, a, hook } = await gatewaySetup();
    await setNodeSeen(a.id, 5);
    await runCron();
    // What PATCH /agents/me/gateways/:id { health: "down" } from the region's manager writes.
    await env.DB.prepare("UPDATE gateways SET health = 'down' WHERE id = ?").bind(inventory.id).run();
    await runCron();
    const [entry] = await received(hook.id);
    expect(JSON.parse(entry!.body).data).toMatchObject({ reason: "reported_down", gateway: { id: inventory.id, health: "down" } });
  });
});

describe("scheduled detection: config drift", () => {
  it("no drift inside the threshold, for offline nodes, or once the node catches up", async () => {
    const { owner, node } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["config.drift"]);
    await setNodeSeen(node.id, 5, 0);
    await runCron();
    await startDriftClock(node.id, 60); // behind for a minute only
    await runCron();
    expect(await received(hook.id)).toEqual([]);

    const revision = (await env.DB.prepare(
      "SELECT routing_revision AS r FROM networks n JOIN nodes d ON d.network_id = n.id WHERE d.id = ?",
    )
      .bind(node.id)
      .first<{ r: number }>())!.r;
    await setNodeSeen(node.id, 5, revision); // caught up: the clock stops
    await runCron();
    const row = await env.DB.prepare("SELECT behind_since FROM node_presence WHERE node_id = ?")
      .bind(node.id)
      .first<{ behind_since: string | null }>();
    expect(row!.behind_since).toBeNull();

    await setNodeSeen(node.id, 3600, 0); // behind but offline: not drift (node.offline covers it)
    await runCron();
    expect(await received(hook.id)).toEqual([]);
  });

  it("a new desired revision while still behind announces drift again, once", async () => {
    const { owner, network, node } = await ownerWithNode();
    const { hook } = await webhookChannel(owner, ["config.drift"]);
    await setNodeSeen(node.id, 5, 0);
    await runCron();
    await startDriftClock(node.id, 3600);
    await runCron();
    await createNode(owner, network.id); // bumps the network's routing revision
    await setNodeSeen(node.id, 5);
    await runCron();
    await runCron();
    const bodies = (await received(hook.id)).map((entry) => JSON.parse(entry.body));
    expect(bodies.map((body) => body.data.desiredRevision)).toEqual([bodies[0].data.desiredRevision, bodies[0].data.desiredRevision + 1]);
  });
});
