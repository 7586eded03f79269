// Issue 29's first run without dead ends: an empty server's first page leads to a group, a group to its
// network, and a new gateway node's steps hold a command for machines without systemd.
import { describe, expect, it } from "vitest";
import { createGateway, createGroup, createUser, networkSetup, signInAdmin } from "../helpers/factories";
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
