// Delta sync through the API: a device (or a gateway daemon) that names the revision it holds gets only
// what changed, which applied to what it holds is the whole config the server would send; a revision
// the server no longer keeps, or none, gets the whole config.
import { describe, expect, it } from "vitest";
import { applyConfigDelta, type ConfigDelta, type NodeConfig } from "../../src/core/routing";
import { call, get, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createGateway, createNode, enrolDevice, networkSetup } from "../helpers/factories";

const configOf = (device: { deviceId: string; deviceToken: string }, body?: unknown) =>
  call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken, body });

const core = ({ wgQuick: _text, ...rest }: NodeConfig) => rest;

describe("POST /client/devices/{id}/config with sinceRevision", () => {
  it("answers a delta that, applied to the held config, is the whole config; without a body, the whole config", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.77.0.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    const held = (await configOf(device)).body.config as NodeConfig;
    const joined = await createNode(admin, network.id, { endpoint: "203.0.113.5:51820" });
    const gone = await createNode(admin, network.id);
    await call("DELETE", `/nodes/${gone.id}`, { token: admin.token });

    const answer = await configOf(device, { sinceRevision: held.routingRevision });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty("config");
    const delta = answer.body.delta as ConfigDelta;
    expect(delta.fromRevision).toBe(held.routingRevision);
    expect(delta.peersUpserted.map((peer) => peer.nodeId)).toEqual([joined.id]);
    expect(delta.peersRemoved).toEqual([]);
    const whole = (await configOf(device)).body.config as NodeConfig;
    expect(delta.routingRevision).toBe(whole.routingRevision);
    expect(applyConfigDelta(core(held), delta)).toEqual(whole);
    // The delta is small: one peer, not the network.
    expect(JSON.stringify(answer.body).length).toBeLessThan(1024);

    // Held revision = current: an empty delta.
    const none = await configOf(device, { sinceRevision: whole.routingRevision });
    expect(none.body.delta).toMatchObject({ peersUpserted: [], peersRemoved: [], routingRevision: whole.routingRevision });
  });

  it("a revision the writer no longer keeps, or one it never served, gets the whole config", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.77.1.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    const held = (await configOf(device)).body.config as NodeConfig;
    // Each read at a new revision keeps that revision's topology; enough of them push the held one out.
    for (let i = 0; i < 6; i++) {
      await createNode(admin, network.id);
      expect((await configOf(device)).status).toBe(200);
    }
    const stale = await configOf(device, { sinceRevision: held.routingRevision });
    expect(stale.body).not.toHaveProperty("delta");
    expect(stale.body.config.peers).toHaveLength(6);
    const ahead = await configOf(device, { sinceRevision: held.routingRevision + 1000 });
    expect(ahead.body.config.routingRevision).toBe(stale.body.config.routingRevision);
  });

  it("refuses a malformed body (422) and one that is not JSON (415)", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.77.2.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    expectError(await configOf(device, { sinceRevision: -1 }), 422, "VALIDATION_ERROR");
    expectError(await configOf(device, { sinceRevision: "3" }), 422, "VALIDATION_ERROR");
    expectError(await configOf(device, { since: 3 }), 422, "VALIDATION_ERROR");
    const text = await call("POST", `/client/devices/${device.deviceId}/config`, {
      token: device.deviceToken,
      raw: "sinceRevision=3",
      headers: { "Content-Type": "text/plain" },
    });
    expectError(text, 415, "unsupported_media_type");
  });
});

describe("GET /agents/me/desired-state?held=", () => {
  it("sends deltas for the routing revisions a daemon holds, and no zone for a DNS revision it holds", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.77.3.0/24" });
    const inventory = await createGateway(admin);
    const gw = await createNode(admin, network.id, { name: "gw1", gatewayId: inventory.id, endpoint: "198.51.100.1:51820" });
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: inventory.id }, admin.token);
    const { credential } = (await post("/agents/enrol", { token: issued.body.token, name: "delta", version: "1.0.0" })).body;
    const first = (await get("/agents/me/desired-state", credential)).body.nodes[0];
    const held = `${gw.id}:${first.config.routingRevision}:${first.dns.revision}`;

    const joined = await createNode(admin, network.id);
    const answer = await get(`/agents/me/desired-state?held=${held}`, credential);
    expect(answer.status).toBe(200);
    const [entry] = answer.body.nodes;
    expect(entry).not.toHaveProperty("config");
    expect(entry.delta.peersUpserted.map((peer: { nodeId: string }) => peer.nodeId)).toEqual([joined.id]);
    // A node joined, so the zone changed: the daemon gets the new one.
    expect(entry.dns.revision).toBeGreaterThan(first.dns.revision);
    expect(entry.dns.zonefile).toContain(joined.name);

    // Holding everything current: an empty delta and no zone.
    const now = `${gw.id}:${entry.delta.routingRevision}:${entry.dns.revision}`;
    const quiet = (await get(`/agents/me/desired-state?held=${now}`, credential)).body.nodes[0];
    expect(quiet.delta).toMatchObject({ peersUpserted: [], peersRemoved: [] });
    expect(quiet.dns).toEqual({ domain: entry.dns.domain, revision: entry.dns.revision });

    for (const bad of ["x", `${gw.id}:1`, `${gw.id}:a:1`, `${gw.id}:1:1,`]) {
      expectError(await get(`/agents/me/desired-state?held=${encodeURIComponent(bad)}`, credential), 422, "VALIDATION_ERROR");
    }
  });
});
