import { describe, expect, it } from "vitest";
import { describeForLog } from "../../src/lib/log";
import { del, get, patch, post, put } from "../helpers/api";
import { addMember, createGateway, createNode, createUser, enrolDevice, gatewayNetwork, signInAdmin } from "../helpers/factories";

describe("edges found in review", () => {
  it("a CLI-enrolled server can be a gateway hop; while it is one, neither it nor its owner's access can go", async () => {
    const admin = await signInAdmin();
    const { group, network } = await gatewayNetwork(admin, 0);
    const owner = await createUser(admin);
    await addMember(group.id, owner, "member");
    const device = await enrolDevice(owner, { networkId: network.id });
    const gateway = await createGateway(admin);
    const made = await patch(`/nodes/${device.nodeId}`, { roles: ["gateway"], gatewayId: gateway.id, endpoint: "198.51.100.9:51820" }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const policy = await post(`/networks/${network.id}/routing-policies`, {
      name: "via-server", type: "via_gateway", destinationCidr: "192.168.90.0/24", gatewayPath: [device.nodeId],
    }, admin.token);
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);

    const refused = await del(`/devices/${device.deviceId}`, owner.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(policy.body.id);

    // Ending the owner's access would leave a trusted peer (its machine holds the key) or break the routes:
    // leaving, removal, disabling and deletion are refused until the policy changes, and nothing changed.
    expect((await del(`/groups/${group.id}/members/${owner.userId}`, owner.token)).status).toBe(409);
    const removal = await del(`/groups/${group.id}/members/${owner.userId}`, admin.token);
    expect(removal.status).toBe(409);
    expect(removal.body.error.message).toContain(policy.body.id);
    expect((await patch(`/users/${owner.userId}`, { disabled: true }, admin.token)).status).toBe(409);
    expect((await del(`/users/${owner.userId}`, admin.token)).status).toBe(409);
    expect((await get("/users/me", owner.token)).status).toBe(200);
    expect((await post(`/client/devices/${device.deviceId}/config`, {}, device.deviceToken)).status).toBe(200);

    expect((await del(`/routing-policies/${policy.body.id}`, admin.token)).status).toBe(204);
    expect((await del(`/groups/${group.id}/members/${owner.userId}`, admin.token)).status).toBe(204);
    expect((await post(`/client/devices/${device.deviceId}/config`, {}, device.deviceToken)).status).toBe(401);
    expect((await get(`/nodes/${device.nodeId}`, admin.token)).status).toBe(404);
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
