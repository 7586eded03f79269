// Issue 28 red team: GET /nodes/:id/paths as another tenant, another member, a viewer and a device. The paths of
// a node that is no device (a gateway, a relay, a server) list each peer with where the node heard it from and
// its last handshake: for a peer that is another member's device that is its public address and when it was
// last up, which round 3 made its owner's (docs/security.md, "Device nodes"; GET /tunnels hides such tunnels).
import { beforeAll, describe, expect, it } from "vitest";
import { get } from "../helpers/api";
import { enrolDevice, type Enrolled, networkSetup, type Session, unique } from "../helpers/factories";
import { daemonReport, keyOf, relayNode, revisionOf } from "../nat/nat-lab";

let admin: Session;
let alice: Session; // member, owns device A
let bob: Session; // member, owns device B
let viewer: Session;
let groupAdmin: Session;
let stranger: Session; // admin of another group
let a: Enrolled;
let b: Enrolled;
let relay: Awaited<ReturnType<typeof relayNode>>;

const itemsOf = async (nodeId: string, token: string) => {
  const paths = await get(`/nodes/${nodeId}/paths`, token);
  expect(paths.status, paths.text).toBe(200);
  return paths.body.items as { peerNodeId: string; endpoint: string | null; lastHandshakeAt: string | null }[];
};

beforeAll(async () => {
  const setup = await networkSetup();
  admin = setup.admin;
  [alice, bob, viewer, groupAdmin] = [
    await setup.as("member"),
    await setup.as("member"),
    await setup.as("viewer"),
    await setup.as("admin"),
  ];
  a = await enrolDevice(alice, { networkId: setup.network.id, name: unique("alice-laptop") });
  b = await enrolDevice(bob, { networkId: setup.network.id, name: unique("bob-laptop") });
  relay = await relayNode(admin, setup.network.id, unique("relay"), "198.51.100.50:51820");
  // The relay's daemon heard both laptops from their homes' addresses a moment ago.
  await daemonReport(relay, await revisionOf(setup.network.id, admin.token), [
    { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "203.0.113.10:40001" },
    { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "203.0.113.20:40002" },
  ]);
  stranger = (await networkSetup({ owner: "user" })).owner;
}, 120_000);

describe("GET /nodes/:id/paths of a node that is no device", { timeout: 60_000 }, () => {
  it("shows another member's device peer (its address, its last handshake) only to those who read that device", async () => {
    const seen = async (token: string) => (await itemsOf(relay.node.id, token)).map((item) => item.peerNodeId).sort();
    // Those who read every device of the group see both entries, with where the relay heard each.
    for (const reader of [admin, groupAdmin]) {
      const items = await itemsOf(relay.node.id, reader.token);
      expect(items.find((item) => item.peerNodeId === a.nodeId)).toMatchObject({
        endpoint: "203.0.113.10:40001",
        lastHandshakeAt: expect.any(String),
      });
      expect(await seen(reader.token)).toEqual([a.nodeId, b.nodeId].sort());
    }
    // Each member sees their own device's entry, not the other's; a viewer sees neither (as GET /tunnels).
    expect(await seen(alice.token)).toEqual([a.nodeId]);
    expect(await seen(bob.token)).toEqual([b.nodeId]);
    expect(await seen(viewer.token)).toEqual([]);
  });

  it("held: another tenant, another member's device node and another device's credential get 404", async () => {
    expect((await get(`/nodes/${relay.node.id}/paths`, stranger.token)).status).toBe(404);
    expect((await get(`/nodes/${a.nodeId}/paths`, stranger.token)).status).toBe(404);
    expect((await get(`/nodes/${a.nodeId}/paths`, bob.token)).status).toBe(404);
    expect((await get(`/nodes/${a.nodeId}/paths`, viewer.token)).status).toBe(404);
    expect((await get(`/nodes/${a.nodeId}/paths`, b.deviceToken)).status).toBe(404);
    expect((await get(`/nodes/${relay.node.id}/paths`, b.deviceToken)).status).toBe(404);
    // The device's own credential and its owner read its paths in full (its own tunnels).
    expect((await get(`/nodes/${a.nodeId}/paths`, a.deviceToken)).status).toBe(200);
    expect((await get(`/nodes/${a.nodeId}/paths`, alice.token)).status).toBe(200);
  });
});
