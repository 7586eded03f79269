// Issue 29's first run without dead ends: an empty server's first page leads to a group, a group to its
// network, a new gateway node's steps hold a command for machines without systemd, and a gateway node's enrol
// command can be had again later (the Nodes page) and whole (the Agents page).
import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { assignGateway, createGateway, createGroup, createUser, expectStatus, networkSetup, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { textOf } from "./support/html";

const PASSWORD = "a long enough password";

describe("console first run: the way from an empty account to a network", () => {
  it("tells someone in no group that a network needs one, and links to making it", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/networks");
    expect(textOf(page.text)).toContain("No networks yet. A network belongs to a group: create a group first");
    expect(page.text).toContain('<a href="/groups">create a group</a>');
  });

  it("links a group's owner to creating a network in it, the group already chosen", async () => {
    const owner = await createUser(await signInAdmin());
    await createGroup(owner, "first-group");
    const group = await createGroup(owner, "second-group");
    const agent = await signedInAgent(owner.email, PASSWORD);
    const groupPage = await agent.get(`/groups/${group.id}`);
    const link = `/networks?group=${group.id}#create-network`;
    expect(groupPage.text).toContain(`<a href="${link}">Create a network in second-group</a>`);
    const networks = await agent.get(link.replace(/#.*/, ""));
    // The second group, not the list's first, is the selected option.
    expect(networks.text).toMatch(new RegExp(`<option value="${group.id}" selected="">second-group</option>`));
  });
});

describe("console first run: a gateway node's agent steps", () => {
  it("offers the foreground `wgo gateway run` beside the systemd service, as a copyable command", async () => {
    const { admin, network } = await networkSetup();
    const inventory = await createGateway(admin);
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const created = await agent.post(`/networks/${network.id}/nodes`, { name: "gw-run", gateway: "on", gatewayId: inventory.id });
    const page = await agent.get(created.location ?? "");
    expect(textOf(page.text)).toContain("Or, without systemd, run the agent in the foreground");
    expect(page.text).toContain('<code id="run-command">wgo gateway run</code>');
    expect(page.text).toContain('data-copy="run-command"');
  });
});

describe("console first run: an enrol command after the node's own page is gone", () => {
  it("offers a platform admin a token per gateway node awaiting its agent on the Nodes page, with the whole command", async () => {
    const { admin, network } = await networkSetup();
    const inventory = await createGateway(admin);
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const created = await agent.post(`/networks/${network.id}/nodes`, { name: "gw-later", gateway: "on", gatewayId: inventory.id });
    const nodeId = new URL(created.location ?? "", "https://console.test").searchParams.get("added");
    // The Nodes page as the checklist's "Gateway agents" step opens it: no ?added=.
    const page = await agent.get(`/networks/${network.id}/nodes`);
    const action = `/networks/${network.id}/nodes/${nodeId}/agent-token`;
    expect(page.text).toContain(`action="${action}"`);
    expect(textOf(page.text)).toContain("Issue agent enrolment token for gw-later");
    const issued = await agent.post(action, {});
    expect(issued.status).toBe(201);
    const token = /wgo gateway enrol --api https:\/\/console\.test --token (aet_[\w-]+)/.exec(textOf(issued.text))?.[1] ?? "";
    expect(expectStatus(await api().POST("/api/v1/agents/enrol", { body: { token, name: "later" } }), 201).agent.gatewayId).toBe(
      inventory.id,
    );
  });

  it("offers a group owner who is no platform admin no token button (the API would refuse them the token)", async () => {
    const { admin, owner, group, network } = await networkSetup({ owner: "user" });
    const inventory = await createGateway(admin);
    await assignGateway(admin, group.id, { gatewayId: inventory.id });
    const body = { networkId: network.id, name: "gw-owned", roles: ["gateway" as const], gatewayId: inventory.id };
    expectStatus(await api(owner.token).POST("/api/v1/nodes", { body }), 201);
    const text = textOf((await (await signedInAgent(owner.email, PASSWORD)).get(`/networks/${network.id}/nodes`)).text);
    expect(text).toContain("Awaiting their gateway agent: gw-owned.");
    expect(text).not.toContain("Issue agent enrolment token");
  });

  it("shows the Agents page's gateway-daemon token inside the whole enrol command", async () => {
    const gateway = await createGateway(await signInAdmin());
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const issued = await agent.post("/admin/agents/tokens", { kind: "gateway-daemon", gatewayId: gateway.id, regionId: "" });
    const token = /<code id="agent-token">([^<]+)<\/code>/.exec(issued.text)?.[1] ?? "";
    expect(token).toMatch(/^aet_/);
    expect(issued.text).toContain(`<code id="agent-enrol-command">wgo gateway enrol --api https://console.test --token ${token}</code>`);
  });
});
