import { describe, expect, it } from "vitest";
import { describeForLog } from "../../src/middleware/error-handler";
import { del, get, patch, post, put } from "../helpers/api";
import { createGateway, createNode, enrolDevice, gatewayNetwork, signInAdmin } from "../helpers/factories";

describe("edges found in review", () => {
  it("a managed device's node cannot take the gateway role (it could vanish under a policy)", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const device = await enrolDevice(admin, { networkId: network.id });
    const gateway = await createGateway(admin);
    const response = await patch(`/nodes/${device.nodeId}`, { roles: ["gateway"], gatewayId: gateway.id }, admin.token);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("validation_error");
  });

  it("turning the gateway role on or off bumps the DNS revision (the zone's name server moves)", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    await createNode(admin, network.id);
    // The second node (.2): as a gateway it becomes the name server instead of the range's first address (.1).
    const node = await createNode(admin, network.id);
    const before = (await get(`/networks/${network.id}`, admin.token)).body.dnsRevision;
    const zoneBefore = (await get(`/networks/${network.id}/dns/zonefile`, admin.token)).text;
    await patch(`/nodes/${node.id}`, { roles: ["gateway"], gatewayId: (await createGateway(admin)).id }, admin.token);
    expect((await get(`/networks/${network.id}`, admin.token)).body.dnsRevision).toBe(before + 1);
    expect((await get(`/networks/${network.id}/dns/zonefile`, admin.token)).text).not.toBe(zoneBefore);
  });

  it("a TXT record at a node's name sits beside the node's address record", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const node = await createNode(admin, network.id, { name: "laptop" });
    await post(`/networks/${network.id}/dns/records`, { name: "laptop", type: "TXT", value: "owner=ada" }, admin.token);
    const zone = (await get(`/networks/${network.id}/dns/zonefile`, admin.token)).text;
    expect(zone).toContain(`laptop\t300\tIN\tA\t${node.address}\n`);
    expect(zone).toContain("laptop\t300\tIN\tTXT\t\"owner=ada\"\n");
  });

  it("deleting a policy removes it from devices' 'only' preferences", async () => {
    const admin = await signInAdmin();
    const { network, hops: [gw] } = await gatewayNetwork(admin, 1);
    const policy = (await post(`/networks/${network.id}/routing-policies`, { name: "a", type: "via_gateway", destinationCidr: "192.168.40.0/24", gatewayPath: [gw!.id] }, admin.token)).body;
    const device = await enrolDevice(admin, { networkId: network.id });
    await put(`/devices/${device.deviceId}/routing-preferences`, { mode: "only", policyIds: [policy.id] }, admin.token);
    expect((await del(`/routing-policies/${policy.id}`, admin.token)).status).toBe(204);
    const preference = (await get(`/devices/${device.deviceId}/routing-preferences`, admin.token)).body;
    expect(preference).toEqual({ mode: "only", policyIds: [] });
    expect((await put(`/devices/${device.deviceId}/routing-preferences`, preference, admin.token)).status).toBe(200);
  });

  it("logs of database failures never carry the bound parameters", () => {
    const error = Object.assign(new Error("Failed query: insert into users values (?, ?)\nparams: usr_1,$scrypt$ln=14,r=8,p=5$c2FsdA$aGFzaA"), {
      name: "DrizzleQueryError", cause: new Error("D1_ERROR: UNIQUE constraint failed"), query: "insert into users values (?, ?)",
    });
    const logged = JSON.stringify(describeForLog(error));
    expect(logged).not.toContain("$scrypt$");
    expect(logged).toContain("UNIQUE constraint failed");
    expect(logged).toContain("insert into users");
  });
});
