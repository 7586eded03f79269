// A device's long poll (POST /client/devices/{id}/config?wait=N with the revision it holds): the network's
// writer holds the request until the routing revision moves (any routing change, a gateway failover), then
// the answer is the delta; with no change, an empty delta when the time is up. Revocation still decides.
import { describe, expect, it } from "vitest";
import type { ConfigDelta, NodeConfig } from "../../src/core/routing";
import { call } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

const configOf = (device: { deviceId: string; deviceToken: string }, query = "", body?: unknown) =>
  call("POST", `/client/devices/${device.deviceId}/config${query}`, { token: device.deviceToken, body });

describe("POST /client/devices/{id}/config?wait=", () => {
  it("answers the delta as soon as the routing revision moves while it waits", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.78.0.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    const held = (await configOf(device)).body.config as NodeConfig;
    const waiting = configOf(device, "?wait=20", { sinceRevision: held.routingRevision });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const joined = await createNode(admin, network.id);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const delta = answer.body.delta as ConfigDelta;
    expect(delta.fromRevision).toBe(held.routingRevision);
    expect(delta.routingRevision).toBeGreaterThan(held.routingRevision);
    expect(delta.peersUpserted.map((peer) => peer.nodeId)).toEqual([joined.id]);
  });

  it("answers at once when the held revision is already old, and an empty delta when nothing changes in time", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.78.1.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    const held = (await configOf(device)).body.config as NodeConfig;
    await createNode(admin, network.id);
    const old = await configOf(device, "?wait=60", { sinceRevision: held.routingRevision });
    expect(old.body.delta.peersUpserted).toHaveLength(1);
    const current = old.body.delta.routingRevision as number;
    const quiet = await configOf(device, "?wait=1", { sinceRevision: current });
    expect(quiet.body.delta).toMatchObject({ fromRevision: current, routingRevision: current, peersUpserted: [], peersRemoved: [] });
  });

  it("refuses a wait beyond 60 s (422), and a device removed while it waits gets no config", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.78.2.0/24" });
    const device = await enrolDevice(admin, { networkId: network.id });
    const held = (await configOf(device)).body.config as NodeConfig;
    expectError(await configOf(device, "?wait=61", { sinceRevision: held.routingRevision }), 422, "VALIDATION_ERROR");
    const waiting = configOf(device, "?wait=20", { sinceRevision: held.routingRevision });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call("DELETE", `/devices/${device.deviceId}`, { token: admin.token })).status).toBe(204);
    const answer = await waiting;
    // The access check after the wait decides: the removal committed first, so no config leaves.
    expect([401, 404]).toContain(answer.status);
    expect(answer.body).not.toHaveProperty("delta");
  });
});
