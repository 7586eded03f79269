import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { createGateway, createGroup, createNetwork, createNode, fakePublicKey, signInAdmin } from "../helpers/factories";

describe("nodes", () => {
  it("allocates addresses from the network, never network/broadcast, and frees them on delete", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id, "10.77.0.0/30");
    const a = await createNode(admin, network.id);
    const b = await createNode(admin, network.id);
    expect([a.address, b.address]).toEqual(["10.77.0.1", "10.77.0.2"]);
    const full = await post("/nodes", { networkId: network.id, name: "c", publicKey: fakePublicKey() }, admin.token);
    expect(full.status).toBe(409);
    expect(full.body.error.message).toContain("exhausted");
    expect((await del(`/nodes/${a.id}`, admin.token)).status).toBe(204);
    expect((await createNode(admin, network.id)).address).toBe("10.77.0.1");
  });

  it("honours a requested free address; refuses used (409) and unusable ones (400)", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id, "fd10::/64");
    const node = await createNode(admin, network.id, { address: "fd10:0::0:a" });
    expect(node.address).toBe("fd10::a");
    const used = await post("/nodes", { networkId: network.id, name: "dup", publicKey: fakePublicKey(), address: "fd10::a" }, admin.token);
    expect(used.status).toBe(409);
    const outside = await post("/nodes", { networkId: network.id, name: "out", publicKey: fakePublicKey(), address: "fd11::1" }, admin.token);
    expect(outside.status).toBe(400);
    expect(outside.body.error.code).toBe("validation_error");
    expect((await createNode(admin, network.id)).address).toBe("fd10::1");
  });

  it("validates keys, names, endpoints and the gateway role", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    const bad = await post("/nodes", {
      networkId: network.id, name: "Bad Name!", publicKey: "abc", endpoint: "host-without-port", listenPort: 70000,
    }, admin.token);
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(["endpoint", "listenPort", "name", "publicKey"]);
    const noInventory = await post("/nodes", { networkId: network.id, name: "gw", publicKey: fakePublicKey(), roles: ["gateway"] }, admin.token);
    expect(noInventory.status).toBe(422);
    expect(noInventory.body.error.fields[0].path).toBe("gatewayId");
    const unknown = await post("/nodes", { networkId: network.id, name: "gw", publicKey: fakePublicKey(), roles: ["gateway"], gatewayId: "gw_missing" }, admin.token);
    expect(unknown.status).toBe(400);
    const first = await createNode(admin, network.id, { name: "same" });
    expect((await post("/nodes", { networkId: network.id, name: "same", publicKey: fakePublicKey() }, admin.token)).status).toBe(409);
    expect((await post("/nodes", { networkId: network.id, name: "other", publicKey: first.publicKey }, admin.token)).status).toBe(409);
  });

  it("reads, lists by network, updates, and bumps the routing revision on each write", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    const gateway = await createGateway(admin);
    const node = await createNode(admin, network.id, { name: "edge" });
    expect(node.revision).toBe(1);
    const listed = await get(`/nodes?networkId=${network.id}`, admin.token);
    expect(listed.body.items.map((n: { id: string }) => n.id)).toEqual([node.id]);
    const updated = await patch(`/nodes/${node.id}`, { endpoint: "[2001:db8::1]:51820", roles: ["gateway"], gatewayId: gateway.id }, admin.token);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ endpoint: "[2001:db8::1]:51820", roles: ["gateway"], gatewayId: gateway.id, revision: 2 });
    expect((await get(`/networks/${network.id}`, admin.token)).body.routingRevision).toBe(2);
    expect((await patch(`/nodes/${node.id}`, { roles: [] }, admin.token)).body).toMatchObject({ roles: [], gatewayId: null });
  });

  it("a network with nodes cannot be deleted or moved to another CIDR (409)", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    const node = await createNode(admin, network.id);
    expect((await del(`/networks/${network.id}`, admin.token)).status).toBe(409);
    expect((await patch(`/networks/${network.id}`, { cidr: "10.250.0.0/24" }, admin.token)).status).toBe(409);
    await del(`/nodes/${node.id}`, admin.token);
    expect((await del(`/networks/${network.id}`, admin.token)).status).toBe(204);
  });

  it("serves the config as JSON and as wg-quick text", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id, "10.88.0.0/24");
    const a = await createNode(admin, network.id, { name: "a", endpoint: "192.0.2.1:51820", listenPort: 51820 });
    const b = await createNode(admin, network.id, { name: "b" });
    const json = await get(`/nodes/${b.id}/config`, admin.token);
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({
      nodeId: b.id, networkId: network.id, routingRevision: 2, interface: { address: "10.88.0.2/24" }, routingIntent: [],
      peers: [{ nodeId: a.id, publicKey: a.publicKey, endpoint: "192.0.2.1:51820", allowedIps: ["10.88.0.1/32"], persistentKeepalive: 25 }],
    });
    const text = await call("GET", `/nodes/${b.id}/config`, { token: admin.token, headers: { Accept: "text/plain" } });
    expect(text.headers.get("content-type")).toContain("text/plain");
    expect(text.text).toBe(json.body.wgQuick);
    expect(text.text).toContain("PrivateKey = REPLACE_WITH_PRIVATE_KEY\nAddress = 10.88.0.2/24\n");
  });
});
