import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { json as asJson, asText } from "../../client/index.ts";
import { api, byId, patch, post } from "../helpers/api";
import { expectRefused } from "../helpers/expect-error";
import { createGateway, createNode, expectStatus, fakePublicKey, networkSetup } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

/** Node creates and network changes touch these rows (and the revisions on networks). */
const nodesAndNetworks = rowsOf("nodes", "networks");

describe("nodes", () => {
  it("allocates addresses from the network, never network/broadcast, and frees them on delete", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.77.0.0/30" });
    const client = api(admin.token);
    const a = await createNode(admin, network.id);
    const b = await createNode(admin, network.id);
    expect([a.address, b.address]).toEqual(["10.77.0.1", "10.77.0.2"]);
    const full = await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "c", publicKey: fakePublicKey() } }),
      409,
      "conflict",
    );
    expect(full.message).toContain("exhausted");
    expect((await client.DELETE("/api/v1/nodes/{id}", byId(a.id))).response.status).toBe(204);
    expect((await createNode(admin, network.id)).address).toBe("10.77.0.1");
  });

  it("honours a requested free address; refuses used (409) and unusable ones (400)", async () => {
    const { admin, network } = await networkSetup({ cidr: "fd10::/64" });
    const client = api(admin.token);
    const node = await createNode(admin, network.id, { address: "fd10:0::0:a" });
    expect(node.address).toBe("fd10::a");
    await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "dup", publicKey: fakePublicKey(), address: "fd10::a" } }),
      409,
      "conflict",
    );
    await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "out", publicKey: fakePublicKey(), address: "fd11::1" } }),
      400,
      "validation_error",
    );
    expect((await createNode(admin, network.id)).address).toBe("fd10::1");
  });

  it("validates keys, names, endpoints and the gateway role", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    // Values the schema refuses, sent raw: the typed client would not let them through.
    await expectRefused(
      nodesAndNetworks,
      () =>
        post(
          "/nodes",
          {
            networkId: network.id,
            name: "Bad Name!",
            publicKey: "abc",
            endpoint: "host-without-port",
            listenPort: 70000,
          },
          admin.token,
        ),
      422,
      "VALIDATION_ERROR",
      ["endpoint", "listenPort", "name", "publicKey"],
    );
    await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "gw", publicKey: fakePublicKey(), roles: ["gateway"] } }),
      422,
      "VALIDATION_ERROR",
      ["gatewayId"],
    );
    await expectRefused(
      nodesAndNetworks,
      () =>
        client.POST("/api/v1/nodes", {
          body: { networkId: network.id, name: "gw", publicKey: fakePublicKey(), roles: ["gateway"], gatewayId: "gw_missing" },
        }),
      400,
      "validation_error",
    );
    const first = await createNode(admin, network.id, { name: "same" });
    await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "same", publicKey: fakePublicKey() } }),
      409,
      "conflict",
    );
    await expectRefused(
      nodesAndNetworks,
      () => client.POST("/api/v1/nodes", { body: { networkId: network.id, name: "other", publicKey: first.publicKey! } }),
      409,
      "conflict",
    );
  });

  it("reads, lists by network, updates, and bumps the routing revision on each write", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    const gateway = await createGateway(admin);
    const node = await createNode(admin, network.id, { name: "edge" });
    expect(node.revision).toBe(1);
    const listed = expectStatus(await client.GET("/api/v1/nodes", { params: { query: { networkId: network.id } } }), 200);
    expect(listed.items.map((n) => n.id)).toEqual([node.id]);
    const updated = expectStatus(
      await client.PATCH("/api/v1/nodes/{id}", {
        ...byId(node.id),
        body: { endpoint: "[2001:db8::1]:51820", roles: ["gateway"], gatewayId: gateway.id },
      }),
      200,
    );
    expect(updated).toMatchObject({ endpoint: "[2001:db8::1]:51820", roles: ["gateway"], gatewayId: gateway.id, revision: 2 });
    expect(expectStatus(await client.GET("/api/v1/networks/{id}", byId(network.id)), 200).routingRevision).toBe(2);
    const demoted = expectStatus(await client.PATCH("/api/v1/nodes/{id}", { ...byId(node.id), body: { roles: [] } }), 200);
    expect(demoted).toMatchObject({ roles: [], gatewayId: null });
  });

  it("an update answers with the node's last report, not the writer's copy of it (held as loaded)", async () => {
    const { admin, network } = await networkSetup();
    const node = await createNode(admin, network.id);
    // Reported after the writer loaded the node: a gateway agent writes these columns in D1, outside the writer.
    const seen = new Date(Date.now() - 5000).toISOString();
    await env.DB.prepare("update nodes set last_seen_at = ? where id = ?").bind(seen, node.id).run();
    const renamed = await patch(`/nodes/${node.id}`, { name: "renamed-after-report" }, admin.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("renamed-after-report");
    expect(renamed.body.lastSeenAt).toBe(seen);
  });

  it("a network with nodes cannot be deleted or moved to another CIDR (409)", async () => {
    const { admin, network } = await networkSetup();
    const client = api(admin.token);
    const node = await createNode(admin, network.id);
    await expectRefused(nodesAndNetworks, () => client.DELETE("/api/v1/networks/{id}", byId(network.id)), 409, "conflict");
    await expectRefused(
      nodesAndNetworks,
      () => client.PATCH("/api/v1/networks/{id}", { ...byId(network.id), body: { cidr: "10.250.0.0/24" } }),
      409,
      "conflict",
    );
    expect((await client.DELETE("/api/v1/nodes/{id}", byId(node.id))).response.status).toBe(204);
    expect((await client.DELETE("/api/v1/networks/{id}", byId(network.id))).response.status).toBe(204);
  });

  it("serves the config as JSON and as wg-quick text", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.88.0.0/24" });
    const client = api(admin.token);
    const a = await createNode(admin, network.id, { name: "a", endpoint: "192.0.2.1:51820", listenPort: 51820 });
    const b = await createNode(admin, network.id, { name: "b" });
    const json = asJson(expectStatus(await client.GET("/api/v1/nodes/{id}/config", byId(b.id)), 200));
    expect(json).toMatchObject({
      nodeId: b.id,
      networkId: network.id,
      routingRevision: 2,
      interface: { address: "10.88.0.2/24" },
      routingIntent: [],
      peers: [{ nodeId: a.id, publicKey: a.publicKey, endpoint: "192.0.2.1:51820", allowedIps: ["10.88.0.1/32"], persistentKeepalive: 25 }],
    });
    const text = await client.GET("/api/v1/nodes/{id}/config", { ...byId(b.id), ...asText });
    expect(text.response.headers.get("content-type")).toContain("text/plain");
    expect(text.data).toBe(json.wgQuick);
    expect(text.data).toContain("PrivateKey = REPLACE_WITH_PRIVATE_KEY\nAddress = 10.88.0.2/24\n");
  });
});
