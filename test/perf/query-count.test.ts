import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { forgetLiveSessions } from "../../src/services/auth/session-cache";
import { get, post } from "../helpers/api";
import { createGateway, createNode, enrolDevice, gatewayNetwork, signInAdmin, type Session } from "../helpers/factories";
import { countingD1 } from "./counting-d1";
import { expectErrorIn } from "../helpers/expect-error";

const app = createApp();

/** Counts a cold read: the session check included (a warm one skips it, test/identity/session-cache.test.ts). */
async function countedGet(path: string, token: string, accept = "application/json") {
  forgetLiveSessions();
  const { db, counter } = countingD1(env.DB);
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`http://api.test/api/v1${path}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: accept },
    }),
    { ...env, DB: db },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return counter;
}

async function networkOf(admin: Session, nodes: number, policies: number) {
  const {
    network,
    hops: [gw],
  } = await gatewayNetwork(admin, 1);
  const first = await createNode(admin, network.id);
  for (let i = 1; i < nodes; i++) await createNode(admin, network.id);
  for (let i = 0; i < policies; i++) {
    await post(
      `/networks/${network.id}/routing-policies`,
      { name: `p${i}`, type: "via_gateway", destinationCidr: `172.31.${i}.0/24`, gatewayPath: [gw!.id] },
      admin.token,
    );
  }
  for (let i = 0; i < policies; i++)
    await post(`/networks/${network.id}/dns/records`, { name: `r${i}`, type: "A", value: "10.9.9.9" }, admin.token);
  return { networkId: network.id, nodeId: first.id };
}

/** No N+1: the same number of D1 round trips whatever the network's size. */
describe("D1 round trips per read", () => {
  it("a node config, a zone file and a device heartbeat cost the same at 3 and at 60 nodes", async () => {
    const admin = await signInAdmin();
    const small = await networkOf(admin, 3, 1);
    const large = await networkOf(admin, 60, 12);
    const routes = (n: typeof small) => [
      `/nodes/${n.nodeId}/config`,
      `/networks/${n.networkId}/dns/zonefile`,
      `/networks/${n.networkId}/runtime-status`,
    ];
    for (const [index, smallPath] of routes(small).entries()) {
      const few = await countedGet(smallPath, admin.token);
      const many = await countedGet(routes(large)[index]!, admin.token);
      expect(many.roundTrips, smallPath).toBe(few.roundTrips);
      expect(few.roundTrips, smallPath).toBeLessThanOrEqual(3);
    }
    const config = await countedGet(`/nodes/${large.nodeId}/config`, admin.token);
    // session check + node access; the network's writer renders it from memory (its one row read is
    // counted by test/networks/writer-memory.test.ts)
    expect(config).toMatchObject({ roundTrips: 2, statements: 2 });
  });

  it("30 devices' heartbeats with 40 peers each write no D1 row and read none: the tunnels live in the network's object", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const enrolled = [];
    for (let i = 0; i < 30; i++) enrolled.push(await enrolDevice(admin, { networkId: network.id }));
    const peers = Array.from({ length: 40 }, (_, i) => ({
      publicKey: btoa(String.fromCharCode(...new Uint8Array(32).fill(i + 1))),
      lastHandshakeAt: null,
      rxBytes: i,
      txBytes: i,
    }));
    const before = (await get(`/networks/${network.id}/writer`, admin.token)).body;
    const { db, counter } = countingD1(env.DB);
    for (const device of enrolled) {
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://api.test/api/v1/client/devices/${device.deviceId}/heartbeat`, {
          method: "POST",
          headers: { Authorization: `Bearer ${device.deviceToken}`, "Content-Type": "application/json" },
          body: JSON.stringify({ appliedRevision: null, endpoint: "203.0.113.9:51820", peers }),
        }),
        { ...env, DB: db },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
    }
    // The Worker: one read a beat (the device's credential); the writer: none written.
    expect(counter).toMatchObject({ roundTrips: 30, statements: 30 });
    const after = (await get(`/networks/${network.id}/writer`, admin.token)).body;
    expect(after.rowsWritten - before.rowsWritten).toBe(0);
    // Nor read, beat by beat: the beats go against the copy the writer holds (before: one revision read each,
    // in the report and in the NAT clock). What is left is the learned endpoint's one write and its reads.
    expect(after.statements - before.statements).toBeLessThan(5);
    const tunnels = await get(`/tunnels?networkId=${network.id}&limit=200`, admin.token);
    expect(tunnels.body.items).toHaveLength(200);
  });

  it("device auth reads the device, node and network in one statement: a heartbeat costs the Worker one read, a config two", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const device = await enrolDevice(admin, { networkId: network.id });
    const asDevice = async (path: string, body: unknown) => {
      const { db, counter } = countingD1(env.DB);
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://api.test/api/v1/client/devices/${device.deviceId}/${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${device.deviceToken}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        { ...env, DB: db },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      return counter;
    };
    // The credential's statement also brings the device, node, network and owner's standing; the write is the network writer's.
    expect(await asDevice("heartbeat", { appliedRevision: device.body.config.routingRevision, peers: [] })).toMatchObject({
      roundTrips: 1,
      statements: 1,
    });
    // Credential (with the device's standing), then the re-check after the config was read from the writer's memory.
    expect(await asDevice("config", {})).toMatchObject({ roundTrips: 2, statements: 2 });
    // Written before the answer: the owner reads it back at once.
    expect((await get(`/devices/${device.deviceId}`, admin.token)).body).toMatchObject({
      status: "online",
      appliedRevision: device.body.config.routingRevision,
    });
  });

  it("an agent's desired state reads each network once, however many of its nodes the gateway serves", async () => {
    const admin = await signInAdmin();
    const gateway = await createGateway(admin);
    const networkA = (await gatewayNetwork(admin, 0)).network;
    const networkB = (await gatewayNetwork(admin, 0)).network;
    await createNode(admin, networkA.id, { gatewayId: gateway.id, endpoint: "198.51.100.7:51820" });
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: gateway.id }, admin.token);
    const { credential } = (await post("/agents/enrol", { token: issued.body.token, name: "counted", version: "1.0.0" })).body;
    await countedGet("/agents/me/desired-state", credential); // the first call also records last-seen
    const oneNode = await countedGet("/agents/me/desired-state", credential);

    await createNode(admin, networkA.id, { gatewayId: gateway.id, endpoint: "198.51.100.8:51820" });
    await createNode(admin, networkB.id, { gatewayId: gateway.id, endpoint: "198.51.100.9:51820" });
    const threeNodes = await countedGet("/agents/me/desired-state", credential);
    // One more network costs its zone (configs come from the networks' writers); the second node in
    // network A costs nothing.
    expect(threeNodes.roundTrips - oneNode.roundTrips).toBe(1);

    // A daemon that holds the current DNS revisions gets no zone, and no zone is rendered.
    const state = (await get("/agents/me/desired-state", credential)).body as {
      nodes: { nodeId: string; config: { routingRevision: number }; dns: { revision: number } }[];
    };
    const held = state.nodes.map((node) => `${node.nodeId}:${node.config.routingRevision}:${node.dns.revision}`).join(",");
    const holding = await countedGet(`/agents/me/desired-state?held=${held}`, credential);
    expect(threeNodes.roundTrips - holding.roundTrips).toBe(2);
  });

  it("an anonymous DELETE costs no D1 read at all (the audit trail waits for credentials)", async () => {
    const { db, counter } = countingD1(env.DB);
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request("http://api.test/api/v1/routing-policies/rp_someone", { method: "DELETE" }),
      { ...env, DB: db },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    await expectErrorIn(response, 401, "unauthorized");
    expect(counter.roundTrips).toBe(0);
  });
});
