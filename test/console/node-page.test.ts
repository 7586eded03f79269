import { describe, expect, it } from "vitest";
import { byId } from "../../client/index.ts";
import { api, get } from "../helpers/api";
import { createGateway, createNode, enrolDevice, expectStatus, fakePublicKey, networkSetup } from "../helpers/factories";
import { checkAt, daemonReport, heartbeat, keyOf, natNetwork, revisionOf } from "../nat/nat-lab";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { rowOf, textOf } from "./support/html";

const PASSWORD = "a long enough password";
const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
const TIMEOUT_MS = 20_000; // NAT_DIRECT_TIMEOUT_SECONDS

/**
 * Laptops A and B behind NAT, relay-1 public. The relay's daemon sees both after NAT; both handshake with the
 * relay now and never with each other, so the writer's NAT check (at a clock past the timeout) moves A-B onto
 * relay-1, while A-relay-1 stays direct.
 */
async function relayedPair() {
  const lab = await natNetwork();
  const { admin, network, relay, a, b } = lab;
  await heartbeat(a, await revisionOf(network.id, admin.token), [], { localEndpoints: ["192.168.1.10:40001"] });
  await daemonReport(relay, await revisionOf(network.id, admin.token), [
    { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" },
    { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "198.51.100.88:40002" },
  ]);
  const revision = await revisionOf(network.id, admin.token);
  const toRelay = { publicKey: relay.node.publicKey, handshakeAt: Date.now(), endpoint: "198.51.100.50:51820" };
  await heartbeat(a, revision, [toRelay]);
  await heartbeat(b, revision, [toRelay]);
  const moved = await checkAt(network.id, Date.now() + TIMEOUT_MS + 1000);
  expect(moved.moves).toEqual([expect.objectContaining({ relayNodeId: relay.node.id })]);
  return lab;
}

describe("console node page", () => {
  it("shows a relayed pair as through the relay and a handshaking one as direct, with peers linked and candidates worded", async () => {
    const { network, relay, a, b } = await relayedPair();
    const agent = await adminAgent();
    const nodes = await agent.get(`/networks/${network.id}/nodes`);
    expect(nodes.text).toContain(`<a href="/networks/${network.id}/nodes/${a.nodeId}">laptop-a</a>`);
    expect(rowOf(nodes.text, "relay-1")).toContain("gateway, relay");

    const page = await agent.get(`/networks/${network.id}/nodes/${a.nodeId}`);
    expect(page.status, page.text.slice(0, 500)).toBe(200);
    expect(textOf(page.text)).toContain(`${network.name}: laptop-a`);
    expect(page.text).toContain('aria-current="page">Nodes');
    expect(page.text).toContain(`<a href="/networks/${network.id}/nodes/${a.nodeId}/config" download="">Download config`);
    const toB = rowOf(page.text, "laptop-b");
    expect(toB).toContain("Through relay-1");
    expect(toB).toContain("198.51.100.88:40002");
    expect(toB).toContain("never");
    const toRelay = rowOf(page.text, "relay-1");
    expect(toRelay).toContain("Direct");
    expect(toRelay).toMatch(/198\.51\.100\.50:51820 (just now|\d+ s ago)$/);
    // The peer and the relay carrying it link to their own pages.
    expect(page.text).toContain(`<a href="/networks/${network.id}/nodes/${b.nodeId}">laptop-b</a>`);
    expect(page.text.match(new RegExp(`href="/networks/${network.id}/nodes/${relay.node.id}"`, "g"))).toHaveLength(2);
    // Where the others are told to find A: after NAT as the relay saw it, then on its LAN.
    expect(rowOf(page.text, "198.51.100.77:40001")).toMatch(
      /^198\.51\.100\.77:40001 seen by a gateway \(after NAT\) (just now|\d+ s ago)$/,
    );
    expect(rowOf(page.text, "192.168.1.10:40001")).toBe("192.168.1.10:40001 on its LAN not dated");

    const relayPage = await agent.get(`/networks/${network.id}/nodes/${relay.node.id}`);
    const relayText = textOf(relayPage.text);
    expect(relayText).toContain("Roles gateway, relay");
    expect(relayText).toContain("This node names its own endpoint");
    expect(rowOf(relayPage.text, "198.51.100.50:51820")).toBe("198.51.100.50:51820 set on the node not dated");
  });

  it("says why a lone node has no peers and no candidates", async () => {
    const { admin, network } = await networkSetup();
    const node = await createNode(admin, network.id);
    const page = await (await adminAgent()).get(`/networks/${network.id}/nodes/${node.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain("No peers: no other node is in its config");
    expect(text).toContain("Nothing learned yet: candidates come from its heartbeats and from gateways that see it.");
  });

  it("shows another member's device without its paths (the API's 404), and answers 404 for a node of another network", async () => {
    const { network, as } = await networkSetup();
    const owner = await as("member");
    const reader = await as("member");
    const device = await enrolDevice(owner, { networkId: network.id, name: "owners-laptop" });
    // The premise: the API keeps this device's paths from another member, as it keeps its config.
    expect((await get(`/nodes/${device.nodeId}/paths`, reader.token)).status).toBe(404);
    const agent = await signedInAgent(reader.email, PASSWORD);
    const page = await agent.get(`/networks/${network.id}/nodes/${device.nodeId}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain("owners-laptop");
    expect(text).toContain("This is another member's device. How it reaches its peers is shown to its owner");
    expect(text).toContain("Last seen not shown");
    expect(text).not.toContain("How it reaches its peers Peer");
    expect(page.text).not.toContain("/config");
    // Its owner reads them.
    const own = await (await signedInAgent(owner.email, PASSWORD)).get(`/networks/${network.id}/nodes/${device.nodeId}`);
    expect(textOf(own.text)).toContain("How it reaches its peers");

    const elsewhere = await networkSetup();
    const foreign = await createNode(elsewhere.admin, elsewhere.network.id, { name: "foreign-node" });
    const mixed = await (await adminAgent()).get(`/networks/${network.id}/nodes/${foreign.id}`);
    expect(mixed.status).toBe(404);
    expect(mixed.text).toContain('role="alert"');
    expect(mixed.text).not.toContain("foreign-node");
  });
});

describe("the relay role in the console", () => {
  it("saves the add-node form's relay checkbox, switches it on a gateway node's page, and places a refusal beside it", async () => {
    const { admin, network } = await networkSetup();
    const inventory = await createGateway(admin);
    const agent = await adminAgent();
    const form = await agent.get(`/networks/${network.id}/nodes`);
    expect(textOf(form.text)).toContain("Relay Carries traffic between nodes that cannot reach each other through NAT.");
    const added = await agent.post(`/networks/${network.id}/nodes`, {
      name: "relay-edge",
      gateway: "on",
      gatewayId: inventory.id,
      endpoint: "198.51.100.60:51820",
      relay: "on",
    });
    expect(added.status, added.text.slice(0, 300)).toBe(303);
    const id = new URL(added.location ?? "", "https://console.test").searchParams.get("added") ?? "";
    const relayOf = async () => expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}", byId(id)), 200).relay;
    expect(await relayOf()).toBe(true);

    const page = `/networks/${network.id}/nodes/${id}`;
    expect((await agent.get(page)).text).toMatch(/<input type="checkbox" id="relay" name="relay" value="on" checked=""/);
    const off = await agent.post(`${page}/relay`, {});
    expect([off.status, off.location]).toEqual([303, page]);
    expect(await relayOf()).toBe(false);
    expect((await agent.post(`${page}/relay`, { relay: "on" })).status).toBe(303);
    expect(await relayOf()).toBe(true);
    // Reloading the URL the form posted to goes back to the node's page.
    expect((await agent.get(`${page}/relay`)).location).toBe(page);

    // A peer cannot relay: the API's 422, beside the checkbox, with what was typed kept.
    const refused = await agent.post(`/networks/${network.id}/nodes`, { name: "laptop-relay", publicKey: fakePublicKey(), relay: "on" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<p class="field-error" id="relay-error">Only a gateway node relays</p>');
    expect(refused.text).toContain('value="laptop-relay"');
  });
});

describe("a node with many peers", () => {
  it("shows the first 200 paths and says how many more there are", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.250.0.0/23" });
    const hub = await createNode(admin, network.id, { name: "hub" });
    for (let i = 0; i < 202; i += 1) await createNode(admin, network.id, { name: `peer-${i}` });
    const page = await (await adminAgent()).get(`/networks/${network.id}/nodes/${hub.id}`);
    expect(page.status).toBe(200);
    expect(page.text.match(/>Not yet known</g)).toHaveLength(200);
    expect(textOf(page.text)).toContain("Showing the first 200 of 202 peers (2 more not shown).");
  }, 60_000); // 203 nodes created one by one through the API: seconds on a busy machine
});
