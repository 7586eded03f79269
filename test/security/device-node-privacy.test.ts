// Issue 24 item 4: what a member may read of another member's device node (docs/security.md, "Device nodes").
// Every reader of the network sees that the node exists (id, name, address, key, endpoint, roles); its
// routing choice, last-seen time, config, tunnels and runtime-status entries are for its owner, the group's
// owners and admins, and platform admins. Each route is tried as another member, a viewer, the device's
// owner, a group admin and a platform admin.
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post, put } from "../helpers/api";
import {
  createGateway,
  createNode,
  enrolDevice,
  type Enrolled,
  fakePublicKey,
  networkSetup,
  type Session,
  unique,
} from "../helpers/factories";

let admin: Session;
let alice: Session; // member, owns device A
let bob: Session; // member, owns device B
let viewer: Session;
let groupAdmin: Session;
let networkId: string;
let a: Enrolled;
let b: Enrolled;
let server: { id: string };
let gatewayNodeId: string;

const handshake = new Date().toISOString();
const peerOf = (publicKey: string) => ({ publicKey, lastHandshakeAt: handshake, rxBytes: 1234, txBytes: 5678 });
const heartbeat = (device: Enrolled, peers: string[]) =>
  call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
    token: device.deviceToken,
    body: { appliedRevision: 0, peers: peers.map(peerOf) },
  });

beforeAll(async () => {
  const setup = await networkSetup();
  admin = setup.admin;
  networkId = setup.network.id;
  [alice, bob, viewer, groupAdmin] = [
    await setup.as("member"),
    await setup.as("member"),
    await setup.as("viewer"),
    await setup.as("admin"),
  ];
  a = await enrolDevice(alice, { networkId, name: unique("alice-laptop") });
  b = await enrolDevice(bob, { networkId, name: unique("bob-laptop") });
  await put(`/devices/${a.deviceId}/routing-preferences`, { mode: "none", policyIds: [] }, alice.token);
  server = await createNode(admin, networkId, { name: unique("server") });
  // A gateway node whose agent reports a tunnel to device A: a report about A from a node that is no device.
  const inventory = await createGateway(admin);
  const gateway = await post("/nodes", { networkId, name: unique("gw"), roles: ["gateway"], gatewayId: inventory.id }, admin.token);
  gatewayNodeId = gateway.body.id;
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: inventory.id }, admin.token);
  const agent = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(
    (await put(`/agents/me/nodes/${gatewayNodeId}`, { publicKey: fakePublicKey(), servesDns: false }, agent.body.credential)).status,
  ).toBe(200);
  const report = { nodes: [{ nodeId: gatewayNodeId, appliedRoutingRevision: 0, peers: [peerOf(a.body.node.publicKey!)] }] };
  expect((await post("/agents/me/report", report, agent.body.credential)).status).toBe(200);
  // Each device reports a tunnel to the other; both lag the network's revision (0 reported).
  expect((await heartbeat(a, [b.body.node.publicKey!])).status).toBe(200);
  expect((await heartbeat(b, [a.body.node.publicKey!])).status).toBe(200);
}, 120_000);

const readers = () => ({ alice, bob, viewer, groupAdmin, admin });
type Reader = keyof ReturnType<typeof readers>;
const SEES_A: Reader[] = ["alice", "groupAdmin", "admin"];
const REDACTED_FOR: Reader[] = ["bob", "viewer"];

describe("another member's device node", { timeout: 60_000 }, () => {
  it("GET /nodes/:id: every reader sees it exists; only its owner, group admins and platform admins see its routing and last-seen", async () => {
    for (const name of [...SEES_A, ...REDACTED_FOR]) {
      const node = await get(`/nodes/${a.nodeId}`, readers()[name].token);
      expect(node.status, name).toBe(200);
      expect({ name, id: node.body.id, address: node.body.address, publicKey: node.body.publicKey, deviceId: node.body.deviceId }).toEqual({
        name,
        id: a.nodeId,
        address: a.address,
        publicKey: a.body.node.publicKey,
        deviceId: a.deviceId,
      });
      const hidden = REDACTED_FOR.includes(name);
      expect({ name, redacted: node.body.redacted, routing: node.body.routing, seen: node.body.lastSeenAt !== null }).toEqual({
        name,
        redacted: hidden,
        routing: hidden ? null : { mode: "none", policyIds: [] },
        seen: !hidden,
      });
    }
  });

  it("GET /nodes/:id/config: 404 to another member and a viewer, 200 to its owner, a group admin and a platform admin", async () => {
    for (const name of REDACTED_FOR) {
      for (const accept of ["application/json", "text/plain"]) {
        const config = await call("GET", `/nodes/${a.nodeId}/config`, { token: readers()[name].token, headers: { Accept: accept } });
        expect({ name, accept, status: config.status, code: config.body?.error?.code }).toEqual({
          name,
          accept,
          status: 404,
          code: "not_found",
        });
      }
    }
    for (const name of SEES_A) expect((await get(`/nodes/${a.nodeId}/config`, readers()[name].token)).status, name).toBe(200);
    // Nodes that are no device stay readable to every reader, and their configs list device A as a peer as before.
    const serverConfig = await get(`/nodes/${server.id}/config`, viewer.token);
    expect(serverConfig.status).toBe(200);
    expect(serverConfig.body.peers.map((peer: { nodeId: string }) => peer.nodeId)).toContain(a.nodeId);
  });

  it("GET /nodes?networkId=: the same node listed redacted to another member and a viewer, in full to the others", async () => {
    for (const name of [...SEES_A, ...REDACTED_FOR]) {
      const listed = await get(`/nodes?networkId=${networkId}`, readers()[name].token);
      const byId = new Map(listed.body.items.map((node: { id: string }) => [node.id, node]));
      const hidden = REDACTED_FOR.includes(name);
      expect(byId.get(a.nodeId), name).toMatchObject({ redacted: hidden, name: a.body.node.name, address: a.address });
      if (hidden) expect(byId.get(a.nodeId), name).toMatchObject({ routing: null, lastSeenAt: null });
      // A node that is no device is never redacted; a member's own device neither.
      expect(byId.get(server.id), name).toMatchObject({ redacted: false, routing: { mode: "all" } });
    }
    const bobs = await get(`/nodes?networkId=${networkId}`, bob.token);
    expect(bobs.body.items.find((node: { id: string }) => node.id === b.nodeId)).toMatchObject({ redacted: false });
  });

  it("GET /tunnels: a tunnel a device reports, or one leading to it, shows only to those who read that device", async () => {
    const tunnels = async (name: Reader, query = "") => {
      const page = await get(`/tunnels?networkId=${networkId}${query}`, readers()[name].token);
      expect(page.status, name).toBe(200);
      return page.body.items.map((t: { fromNodeId: string; toNodeId: string | null }) => `${t.fromNodeId}>${t.toNodeId}`).sort();
    };
    const aToB = `${a.nodeId}>${b.nodeId}`;
    const bToA = `${b.nodeId}>${a.nodeId}`;
    const gwToA = `${gatewayNodeId}>${a.nodeId}`;
    expect(await tunnels("admin")).toEqual([aToB, bToA, gwToA].sort());
    expect(await tunnels("groupAdmin")).toEqual([aToB, bToA, gwToA].sort());
    expect(await tunnels("alice")).toEqual([aToB, gwToA].sort());
    // Bob sees what his own device reports (it knows its handshakes with A), nothing of A's or about A.
    expect(await tunnels("bob")).toEqual([bToA]);
    expect(await tunnels("bob", `&nodeId=${a.nodeId}`)).toEqual([bToA]);
    expect(await tunnels("viewer")).toEqual([]);
  });

  it("GET /networks/:id/runtime-status: another member's device is counted, never named", async () => {
    const status = async (name: Reader) => (await get(`/networks/${networkId}/runtime-status`, readers()[name].token)).body;
    const full = await status("groupAdmin");
    expect(full.routing.lagging).toEqual(expect.arrayContaining([a.nodeId, b.nodeId]));
    expect(full.routing.unreported).toContain(server.id);
    for (const name of ["admin", "alice"] as const) expect((await status(name)).routing.lagging, name).toContain(a.nodeId);
    const bobs = await status("bob");
    expect(bobs.routing.lagging).toContain(b.nodeId);
    expect(bobs.routing.lagging).not.toContain(a.nodeId);
    expect(bobs.routing.unreported).toContain(server.id);
    expect({ applied: bobs.routing.appliedRevision, inSync: bobs.routing.inSync }).toEqual({
      applied: full.routing.appliedRevision,
      inSync: full.routing.inSync,
    });
    const viewers = await status("viewer");
    expect([...viewers.routing.lagging, ...viewers.routing.unreported]).not.toEqual(expect.arrayContaining([a.nodeId]));
    expect(viewers.routing.lagging).not.toContain(b.nodeId);
  });

  it("what was already personal stays so: GET /devices/:id and its routing preferences are 404 to another member", async () => {
    for (const path of [`/devices/${a.deviceId}`, `/devices/${a.deviceId}/routing-preferences`]) {
      expect((await get(path, bob.token)).status, path).toBe(404);
      expect((await get(path, alice.token)).status, path).toBe(200);
    }
  });
});
