import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createGroup, createNode, expectStatus, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";
const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

describe("console refusals in the form's words", () => {
  it("names hops and gateway nodes instead of API paths and ids, beside the hop", async () => {
    const { network, hops } = await networkSetup({ gateways: 2 });
    const [gw1] = hops as [(typeof hops)[0]];
    const agent = await adminAgent();
    const refused = await agent.post(`/networks/${network.id}/policies`, {
      name: "twice",
      destinationCidr: "172.28.0.0/16",
      hop1: gw1.id,
      hop2: gw1.id,
    });
    expect(refused.status).toBe(400);
    const text = textOf(refused.text);
    expect(text).toContain("Hop 2 (gw1) repeats hop 1");
    expect(text).not.toContain("gatewayPath");
    expect(refused.text).not.toContain(`${gw1.id})`);
    expect(refused.text).toMatch(/<p class="field-error" id="hop2-error">Hop 2 \(gw1\) repeats hop 1<\/p>/);
    expect(refused.text).toMatch(/<select id="hop2" name="hop2" aria-invalid="true" aria-describedby="hop2-error"/);
  });

  it("puts a node's field refusal beside the field, and lists it by its label", async () => {
    const { network } = await networkSetup();
    const agent = await adminAgent();
    const refused = await agent.post(`/networks/${network.id}/nodes`, { name: "gw-none", gateway: "on", gatewayId: "" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<a href="#gatewayId">Inventory gateway</a>:');
    expect(refused.text).toMatch(/<p class="field-error" id="gatewayId-error">[^<]+<\/p>/);
    expect(refused.text).toContain('aria-describedby="gatewayId-help gatewayId-error"');
  });
});

describe("console success messages after a create", () => {
  it("says a network and a policy were created", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 1 });
    const agent = await adminAgent();
    const group = await createGroup(admin);
    const made = await agent.post("/networks", {
      groupId: group.id,
      name: "fresh-net",
      cidr: "10.250.7.0/24",
      dnsDomain: "fresh.internal",
    });
    expect(made.status).toBe(303);
    expect(textOf((await agent.get(made.location ?? "")).text)).toContain("Created the network fresh-net.");

    const created = await agent.post(`/networks/${network.id}/policies`, {
      name: "via-one",
      destinationCidr: "172.26.0.0/16",
      hop1: hops[0]?.id ?? "",
    });
    expect(created.status).toBe(303);
    expect(textOf((await agent.get(created.location ?? "")).text)).toContain("Created the routing policy via-one.");
    expect(textOf((await agent.get(`/networks/${network.id}/policies`)).text)).not.toContain("Created the routing policy");
  });
});

describe("console audit log in names", () => {
  it("shows actors by e-mail and nodes by name, and filters by a person picked by e-mail", async () => {
    const { owner, network, as } = await networkSetup({ owner: "user" });
    const node = await createNode(owner, network.id, { name: "db-audit" });
    const admin = await as("admin");
    await createNode(admin, network.id, { name: "db-by-admin" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const events = expectStatus(await api(owner.token).GET("/api/v1/audit", { params: { query: { networkId: network.id } } }), 200).items;
    const nodeEvent = events.find((event) => event.resourceId === node.id);
    expect(nodeEvent).toBeDefined();

    const page = await agent.get(`/audit?network=${network.id}`);
    const row = textOf(
      [...page.text.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].find((match) => match[1]?.includes(nodeEvent?.requestId ?? "?"))?.[1] ?? "",
    );
    expect(row).toContain(owner.email);
    expect(row).toContain("db-audit");
    expect(row).not.toContain(owner.userId);
    expect(row).not.toContain(node.id);
    expect(textOf(page.text)).toContain("Actor");
    expect(page.text).not.toContain("Actor id");
    expect(page.text).toContain(`<option value="${admin.userId}">${admin.email}</option>`);

    const byAdmin = textOf((await agent.get(`/audit?network=${network.id}&actor=${admin.userId}`)).text);
    expect(byAdmin).toContain("db-by-admin");
    expect(byAdmin).not.toContain("db-audit");
  });
});
