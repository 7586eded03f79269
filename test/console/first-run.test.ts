import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { assignGateway, createGateway, createNode, enrolDevice, expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";
const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
const options = (html: string) => [...html.matchAll(/<option value="(gw_[^"]*)"[^>]*>([^<]*)</g)].map((match) => match[1]);

describe("console first run: the add-gateway-node form offers what the group may use", () => {
  it("offers a group owner only the gateways assigned to the group, and says who assigns more", async () => {
    const { admin, owner, group, network } = await networkSetup({ owner: "user" });
    const assigned = await createGateway(admin);
    const other = await createGateway(admin);
    await assignGateway(admin, group.id, { gatewayId: assigned.id });
    const page = await (await signedInAgent(owner.email, PASSWORD)).get(`/networks/${network.id}/nodes`);
    expect(options(page.text)).toContain(assigned.id);
    expect(options(page.text)).not.toContain(other.id);
    expect(textOf(page.text)).toContain("A platform admin assigns more");
  });

  it("tells a group owner with no assigned gateway to ask a platform admin", async () => {
    const { owner, network } = await networkSetup({ owner: "user" });
    const page = await (await signedInAgent(owner.email, PASSWORD)).get(`/networks/${network.id}/nodes`);
    expect(options(page.text)).toEqual([]);
    expect(textOf(page.text)).toContain("No inventory gateway is assigned to this network's group yet. Ask a platform admin");
  });

  it("offers a platform admin every gateway, marks the unassigned ones, and links to the inventory and back", async () => {
    const { admin, group, network } = await networkSetup();
    const assigned = await createGateway(admin);
    const unassigned = await createGateway(admin);
    await assignGateway(admin, group.id, { gatewayId: assigned.id });
    const agent = await adminAgent();
    const page = await agent.get(`/networks/${network.id}/nodes`);
    const offered = options(page.text);
    expect(offered).toContain(unassigned.id);
    expect(offered.indexOf(assigned.id)).toBeLessThan(offered.indexOf(unassigned.id));
    expect(textOf(page.text)).toContain(`${unassigned.name} (active, unknown) (assigned to the group on create)`);
    const back = `/networks/${network.id}/nodes`;
    expect(page.text).toContain(`href="/admin/inventory?back=${encodeURIComponent(back)}"`);

    const inventory = await agent.get(`/admin/inventory?back=${encodeURIComponent(back)}`);
    expect(inventory.text).toContain(`<a href="${back}">Back to adding the gateway node</a>`);
    expect(inventory.text).toContain(`<input type="hidden" name="back" value="${back}"/>`);
    const elsewhere = await agent.get(`/admin/inventory?back=${encodeURIComponent("https://evil.example/networks/x/nodes")}`);
    expect(elsewhere.text).not.toContain("Back to adding the gateway node");
    const region = await agent.post("/admin/regions", { name: `region-${Date.now()}`, back });
    expect(region.location).toBe(`/admin/inventory?back=${encodeURIComponent(back)}`);
  });
});

describe("console first run: after adding a gateway node", () => {
  it("says the agent comes next, with the wgo commands, and issues a platform admin the enrolment token", async () => {
    const { admin, network } = await networkSetup();
    const inventory = await createGateway(admin);
    const agent = await adminAgent();
    const created = await agent.post(`/networks/${network.id}/nodes`, { name: "gw-first", gateway: "on", gatewayId: inventory.id });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(new RegExp(`^/networks/${network.id}/nodes\\?added=node_`));
    const page = await agent.get(created.location ?? "");
    const text = textOf(page.text);
    expect(text).toContain("Added gw-first");
    expect(text).toContain(`Next: enrol the agent on ${inventory.name}.`);
    expect(text).toContain("wgo gateway enrol --api https://console.test --token aet_…");
    expect(text).toContain("wgo install-service --gateway");
    const nodeId = new URL(created.location ?? "", "https://console.test").searchParams.get("added");

    const issued = await agent.post(`/networks/${network.id}/nodes/${nodeId}/agent-token`, {});
    expect(issued.status).toBe(201);
    const token = /--token (aet_[A-Za-z0-9_-]+)/.exec(textOf(issued.text))?.[1];
    expect(token).toBeDefined();
    // The token is real: the API enrols a gateway daemon with it, for this node's gateway.
    const enrolled = await api().POST("/api/v1/agents/enrol", { body: { token: token ?? "", name: "gw-first-agent" } });
    expect(enrolled.response.status).toBe(201);
    const after = await agent.get(created.location ?? "");
    expect(textOf(after.text)).toContain(`The agent of ${inventory.name} is enrolled`);
  });

  it("confirms a peer's creation without agent steps", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const created = await agent.post(`/networks/${network.id}/nodes`, { name: "laptop-ok", publicKey: btoa("k".repeat(32)) });
    const page = await agent.get(created.location ?? "");
    expect(textOf(page.text)).toContain("Added laptop-ok");
    expect(textOf(page.text)).not.toContain("wgo gateway enrol");
  });
});

describe("console first run: the network's checklist", () => {
  it("marks what is done and links the next step, then goes away once a device is enrolled", async () => {
    const { admin, group, network } = await networkSetup();
    const agent = await adminAgent();
    const base = `/networks/${network.id}`;
    const empty = textOf((await agent.get(base)).text);
    expect(empty).toContain(
      "Done: Group Done: Network Next: Gateway nodes Add a gateway node on an inventory gateway To do: Gateway agents",
    );

    const inventory = await createGateway(admin);
    await assignGateway(admin, group.id, { gatewayId: inventory.id });
    const gateway = expectStatus(
      await api(admin.token).POST("/api/v1/nodes", {
        body: { networkId: network.id, name: "gw-wait", roles: ["gateway"], gatewayId: inventory.id },
      }),
      201,
    );
    const awaiting = await agent.get(base);
    expect(textOf(awaiting.text)).toContain("Done: Gateway nodes Next: Gateway agents (awaiting: gw-wait)");
    expect(awaiting.text).toContain(`href="${base}/nodes">Enrol the agent on each gateway`);

    expectStatus(await api(admin.token).DELETE("/api/v1/nodes/{id}", { params: { path: { id: gateway.id } } }), 204);
    const keyed = await createNode(admin, network.id, { name: "gw-keyed", gatewayId: inventory.id });
    expectStatus(
      await api(admin.token).POST("/api/v1/networks/{id}/routing-policies", {
        params: { path: { id: network.id } },
        body: { name: "via", type: "via_gateway", destinationCidr: "192.0.2.0/24", gatewayPath: [keyed.id] },
      }),
      201,
    );
    const policyDone = await agent.get(base);
    expect(textOf(policyDone.text)).toContain("Done: Routing policy Next: Device Add a device (a laptop with wgo, or a phone)");
    await enrolDevice(admin, { networkId: network.id });
    expect((await agent.get(base)).text).not.toContain("Getting started");
  });
});
