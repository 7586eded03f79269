import { describe, expect, it } from "vitest";
import { asText, byId } from "../../client/index.ts";
import { api } from "../helpers/api";
import { createGateway, createNode, enrolDevice, expectStatus, fakePublicKey, networkSetup, unique } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { postForms, rowOf, textOf } from "./support/html";

const PASSWORD = "a long enough password";
const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

describe("console network overview", () => {
  it("shows the network's name, CIDR, DNS domain and revisions, and renames it through the API", async () => {
    const { admin, network } = await networkSetup();
    const agent = await adminAgent();
    const page = await agent.get(`/networks/${network.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    for (const shown of [
      network.name,
      network.cidr,
      network.dnsDomain,
      `Routing revision ${network.routingRevision}`,
      `DNS revision ${network.dnsRevision}`,
    ])
      expect(text).toContain(shown);
    expect(page.text).toContain('aria-current="page">Overview');

    const name = unique("renamed");
    const saved = await agent.post(`/networks/${network.id}`, { name, dnsDomain: "renamed.internal" });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/networks/${network.id}`);
    const after = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id)), 200);
    expect(after).toMatchObject({ name, dnsDomain: "renamed.internal" });
  });

  it("re-renders the edit form with the API's refusal and what was typed", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const refused = await agent.post(`/networks/${network.id}`, { name: network.name, dnsDomain: "not a domain!" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="not a domain!"');
  });

  it("deletes only from the confirmation step, and says why while the network holds nodes", async () => {
    const { admin, network } = await networkSetup();
    const agent = await adminAgent();
    const confirm = await agent.get(`/networks/${network.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.text)).toContain(`Yes, delete ${network.name}`);
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id)), 200).id).toBe(network.id);

    const node = await createNode(admin, network.id);
    const blocked = await agent.post(`/networks/${network.id}/delete`, {});
    const apiSays = await api(admin.token).DELETE("/api/v1/networks/{id}", byId(network.id));
    expect(blocked.status).toBe(apiSays.response.status);
    expect(textOf(blocked.text)).toContain(apiSays.error?.error.message ?? "(no message)");

    expectStatus(await api(admin.token).DELETE("/api/v1/nodes/{id}", byId(node.id)), 204);
    const deleted = await agent.post(`/networks/${network.id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/networks");
    expect((await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id))).response.status).toBe(404);
  });

  it("answers a plain error page, not a stack, for a network the user cannot see", async () => {
    const agent = await adminAgent();
    const page = await agent.get("/networks/net_doesnotexist");
    expect(page.status).toBe(404);
    expect(page.text).toContain('role="alert"');
    expect(page.text).toContain("Back to networks");
  });
});

describe("console nodes page", () => {
  it("shows its empty state, then adds a peer and a gateway node (inventory gateway, DNS) through the form", async () => {
    const { admin, network } = await networkSetup();
    const inventory = await createGateway(admin);
    const agent = await adminAgent();
    const empty = await agent.get(`/networks/${network.id}/nodes`);
    expect(textOf(empty.text)).toContain("No nodes yet. Add the first one below");
    expect(empty.text).toContain(`<option value="${inventory.id}"`);

    const publicKey = fakePublicKey();
    const peer = await agent.post(`/networks/${network.id}/nodes`, { name: "laptop-ada", publicKey, endpoint: "203.0.113.9:51820" });
    expect(peer.status).toBe(303);
    const gateway = await agent.post(`/networks/${network.id}/nodes`, {
      name: "gw-edge",
      gateway: "on",
      gatewayId: inventory.id,
      servesDns: "on",
      listenPort: "51820",
    });
    expect(gateway.status).toBe(303);

    const nodes = expectStatus(await api(admin.token).GET("/api/v1/nodes", { params: { query: { networkId: network.id } } }), 200).items;
    const byName = new Map(nodes.map((node) => [node.name, node]));
    expect(byName.get("laptop-ada")).toMatchObject({ publicKey, endpoint: "203.0.113.9:51820", roles: [] });
    expect(byName.get("gw-edge")).toMatchObject({ roles: ["gateway"], gatewayId: inventory.id, servesDns: true, listenPort: 51820 });

    const table = await agent.get(`/networks/${network.id}/nodes`);
    const row = rowOf(table.text, "laptop-ada");
    expect(row).toContain(byName.get("laptop-ada")?.address);
    expect(row).toContain(`${publicKey.slice(0, 8)}…`);
    expect(row).not.toContain(publicKey);
    expect(rowOf(table.text, "gw-edge")).toContain("gateway, DNS server");
  });

  it("changes a node's endpoint and deletes a node", async () => {
    const { admin, network } = await networkSetup();
    const node = await createNode(admin, network.id, { endpoint: "198.51.100.20:51820" });
    const agent = await adminAgent();
    const base = `/networks/${network.id}/nodes/${node.id}`;
    expect((await agent.post(`${base}/endpoint`, { endpoint: "198.51.100.21:51821" })).status).toBe(303);
    expect(expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}", byId(node.id)), 200).endpoint).toBe("198.51.100.21:51821");
    expect((await agent.post(`${base}/endpoint`, { endpoint: "" })).status).toBe(303);
    expect(expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}", byId(node.id)), 200).endpoint).toBeNull();

    const refused = await agent.post(`${base}/endpoint`, { endpoint: "no port here" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');

    expect((await agent.post(`${base}/delete`, {})).status).toBe(303);
    expect((await api(admin.token).GET("/api/v1/nodes/{id}", byId(node.id))).response.status).toBe(404);
  });

  it("downloads a node's WireGuard config: the API's text, as an attachment named after the node", async () => {
    const { admin, network } = await networkSetup({ gateways: 1 });
    const node = await createNode(admin, network.id, { name: "db-1" });
    const agent = await adminAgent();
    const download = await agent.get(`/networks/${network.id}/nodes/${node.id}/config`);
    const fromApi = await api(admin.token).GET("/api/v1/nodes/{id}/config", { ...byId(node.id), ...asText });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe('attachment; filename="db-1.conf"');
    expect(download.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(download.text).toBe(fromApi.data);
    expect(download.text).toContain("[Interface]");
  });
});

describe("console runtime status page", () => {
  it("shows a node as unreported, then in sync after its device reports the desired revision", async () => {
    const { admin, network } = await networkSetup();
    const device = await enrolDevice(admin, { networkId: network.id, name: "laptop-sync" });
    const agent = await adminAgent();

    const before = await agent.get(`/networks/${network.id}/status`);
    expect(before.status).toBe(200);
    expect(rowOf(before.text, "laptop-sync")).toMatch(/^laptop-sync unreported : never reported/);
    expect(before.text).toMatch(/Read at <time datetime="\d{4}-\d\d-\d\dT/);
    expect(before.text).toContain(`href="/networks/${network.id}/status">Refresh</a>`);

    const desired = expectStatus(await api(admin.token).GET("/api/v1/networks/{id}", byId(network.id)), 200).routingRevision;
    expectStatus(
      await api(device.deviceToken).POST("/api/v1/client/devices/{id}/heartbeat", {
        ...byId(device.deviceId),
        body: { appliedRevision: desired },
      }),
      200,
    );
    const after = await agent.get(`/networks/${network.id}/status`);
    expect(rowOf(after.text, "laptop-sync")).toContain(`laptop-sync in sync : runs revision ${desired}`);
    expect(rowOf(after.text, "laptop-sync")).not.toContain("unreported");

    // A change moves the desired revision on: the device is now behind until it reports again.
    await createNode(admin, network.id, { name: "db-late" });
    const later = await agent.get(`/networks/${network.id}/status`);
    expect(rowOf(later.text, "laptop-sync")).toContain(`laptop-sync lagging : behind revision ${desired + 1}`);
    expect(rowOf(later.text, "db-late")).toContain("db-late unreported");
  });

  it("says so when the network has no nodes yet", async () => {
    const { network } = await networkSetup();
    const page = await (await adminAgent()).get(`/networks/${network.id}/status`);
    expect(textOf(page.text)).toContain("No nodes yet");
  });
});

describe("console network pages for a viewer", () => {
  it("offers no form on any section, and a viewer's POST is refused with the API's message", async () => {
    const { admin, network, as } = await networkSetup({ gateways: 1 });
    const node = await createNode(admin, network.id);
    const viewer = await as("viewer");
    const agent = await signedInAgent(viewer.email, PASSWORD);
    for (const section of ["", "/nodes", "/policies", "/dns", "/status"]) {
      const page = await agent.get(`/networks/${network.id}${section}`);
      expect(page.status, section).toBe(200);
      expect(postForms(page.text), section).toEqual([]);
    }
    const refused = await agent.post(`/networks/${network.id}/nodes/${node.id}/endpoint`, { endpoint: "198.51.100.99:51820" });
    const apiSays = await api(viewer.token).PATCH("/api/v1/nodes/{id}", { ...byId(node.id), body: { endpoint: "198.51.100.99:51820" } });
    expect(refused.status).toBe(403);
    expect(textOf(refused.text)).toContain(apiSays.error?.error.message ?? "(no message)");
    expect(expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}", byId(node.id)), 200).endpoint).toBeNull();
  });
});
