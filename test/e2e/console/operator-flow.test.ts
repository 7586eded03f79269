// Issue 18: an operator's work through the console in a real browser (Debian's Chromium, playwright-core)
// against the real Worker (`wrangler dev`), by role and label as a person (or a screen reader) finds things:
// the gateway inventory (platform admin), a group, a network, two gateway nodes, a 2-hop via_gateway policy and
// its chain, a DNS record and the Corefile download, runtime status before and after a gateway's agent reports
// (the API, as the agent would); then a viewer added on the group's page, who is offered nothing that changes
// the group's things and whose hand-made POST the API refuses with its own message.
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { byId, expectAnswer, login, type TypedApiClient, typedApi } from "../support/api-client.ts";
import { describeInChromium, launchBrowser } from "../support/browser.ts";
import { changingButtons, signInConsole } from "../support/console-browser.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { reportAsAgent } from "./showcase.ts";

/** Buttons every signed-in user has, whatever their group role (docs/notifications.md: channels are the account's). */
const OWN_ACCOUNT_ACTIONS = ["Leave group", "Add channel"];

describeInChromium("the console's operator flow in Chromium", () => {
  let server: WorkerServer;
  let chromium: Browser;
  let admin: TypedApiClient;
  /** What the first test built, for the viewer's test. */
  const built = { groupId: "", networkId: "" };

  beforeAll(async () => {
    [server, chromium] = await Promise.all([startWorker(), launchBrowser()]);
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  const sectionLink = (page: Page, name: string) => page.getByRole("navigation", { name: "Network sections" }).getByRole("link", { name });

  it("builds a network with two gateway nodes, a 2-hop policy, a DNS record, and follows its runtime status", async () => {
    const tab = await signInConsole(chromium, server.baseUrl, server.admin);
    const { page } = tab;
    try {
      // The platform's gateway inventory, as its admin keeps it: a region and two gateways.
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Admin" }).click();
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Regions and gateways" }).click();
      await page.getByLabel("Region name").fill("eu-central");
      await page.getByRole("button", { name: "Add region" }).click();
      for (const name of ["edge-fra-1", "edge-ams-1"]) {
        await page.getByLabel("Region", { exact: true }).selectOption({ label: "eu-central" });
        await page.getByLabel("Name", { exact: true }).fill(name);
        await page.getByRole("button", { name: "Add gateway" }).click();
        await page.getByRole("cell", { name, exact: true }).waitFor();
      }
      const inventory = expectAnswer(await admin.GET("/api/v1/gateways", { params: { query: { limit: 200 } } }), 200, "gateways").items;
      const gatewayNamed = (name: string) => inventory.find((gateway) => gateway.name === name)?.id ?? `no gateway ${name}`;

      // A group, which makes the admin its owner.
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Groups" }).click();
      await page.getByLabel("Name", { exact: true }).fill("platform-team");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.getByRole("heading", { name: "Group platform-team", level: 1 }).waitFor();
      built.groupId = new URL(page.url()).pathname.split("/")[2] ?? "";
      expect(expectAnswer(await admin.GET("/api/v1/groups/{id}", byId(built.groupId)), 200, "group")).toMatchObject({
        name: "platform-team",
        role: "owner",
      });

      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Networks" }).click();
      await page.getByLabel("Group").selectOption({ label: "platform-team" });
      await page.getByLabel("Name", { exact: true }).fill("corp");
      await page.getByLabel("Address range (CIDR)").fill("10.60.0.0/24");
      await page.getByLabel("DNS domain (optional)").fill("corp.internal");
      await page.getByRole("button", { name: "Create network" }).click();
      await page.getByRole("heading", { name: "corp", level: 1 }).waitFor();
      const networkId = new URL(page.url()).pathname.split("/")[2] ?? "";
      built.networkId = networkId;
      expect(expectAnswer(await admin.GET("/api/v1/networks/{id}", byId(networkId)), 200, "network")).toMatchObject({
        groupId: built.groupId,
        cidr: "10.60.0.0/24",
        dnsDomain: "corp.internal",
      });

      // Two gateway nodes, each on its inventory gateway, their keys left to the gateways' agents.
      await sectionLink(page, "Nodes").click();
      await page.getByText("No nodes yet.").waitFor();
      const gateways = [
        { name: "gw-fra", endpoint: "198.51.100.10:51820", gatewayId: gatewayNamed("edge-fra-1") },
        { name: "gw-ams", endpoint: "198.51.100.20:51820", gatewayId: gatewayNamed("edge-ams-1") },
      ];
      // A checkbox at its own size, not stretched like a text field.
      expect((await page.getByLabel(/This node is a gateway/).boundingBox())?.width).toBeLessThan(40);
      for (const gateway of gateways) {
        await page.getByLabel("Name", { exact: true }).fill(gateway.name);
        await page.getByLabel("Endpoint (optional)").fill(gateway.endpoint);
        await page.getByLabel(/This node is a gateway/).check();
        await page.getByLabel("Inventory gateway").selectOption(gateway.gatewayId);
        await page.getByRole("button", { name: "Add node" }).click();
        await page.getByRole("rowheader", { name: gateway.name }).waitFor();
      }
      const nodes = expectAnswer(await admin.GET("/api/v1/nodes", { params: { query: { networkId } } }), 200, "nodes").items;
      expect(nodes.map((node) => [node.name, node.roles, node.gatewayId, node.endpoint])).toEqual(
        gateways.map((gateway) => [gateway.name, ["gateway"], gateway.gatewayId, gateway.endpoint]),
      );

      // A 2-hop via_gateway policy, and its chain as the picture's list reads it, hop by hop in order.
      await sectionLink(page, "Routing policies").click();
      const create = page.getByRole("region", { name: "Create a routing policy" });
      await create.getByLabel("Name").fill("to-datacenter");
      await create.getByLabel("Destination (CIDR)").fill("172.30.0.0/16");
      await create.getByLabel("Hop 1").selectOption({ label: "gw-fra (gateway node)" });
      await create.getByLabel("Hop 2").selectOption({ label: "gw-ams (gateway node)" });
      await create.getByRole("button", { name: "Create policy" }).click();
      const hops = page.getByRole("list", { name: "Hops of to-datacenter, in order" }).getByRole("listitem");
      // The ordered list is for screen readers (visually hidden beside the picture): present, not visible.
      await hops.first().waitFor({ state: "attached" });
      expect(await hops.allTextContents()).toEqual([
        "source: the network's nodes that use this policy",
        expect.stringMatching(/^then gw-fra \(.+, active\), transit$/),
        expect.stringMatching(/^then gw-ams \(.+, active\), egress$/),
        "then destination 172.30.0.0/16",
      ]);
      await expect(
        page.getByRole("img", { name: "Chain of to-datacenter: source → gw-fra → gw-ams → 172.30.0.0/16" }).isVisible(),
      ).resolves.toBe(true);

      // A DNS record, then the Corefile as the browser saves it: the API's bytes exactly.
      await sectionLink(page, "DNS").click();
      await page.getByLabel("Name", { exact: true }).fill("db");
      await page.getByLabel("Type").selectOption("A");
      await page.getByLabel("Value", { exact: true }).fill("10.60.0.200");
      await page.getByRole("button", { name: "Add record" }).click();
      await page.getByRole("row", { name: /db A 10\.60\.0\.200/ }).waitFor();
      // What the viewer's test below must find none of, here for the admin.
      expect(await changingButtons(page)).toEqual(expect.arrayContaining(["Delete db A", "Add record"]));
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Corefile" }).click()]);
      const saved = await readFile(await download.path());
      const corefile = await fetch(`${server.baseUrl}/api/v1/networks/${networkId}/dns/corefile`, {
        headers: { Authorization: `Bearer ${await login(server.baseUrl, server.admin)}` },
      });
      expect(corefile.status).toBe(200);
      expect(saved.equals(Buffer.from(await corefile.arrayBuffer()))).toBe(true);
      expect(saved.toString()).toContain("corp.internal");

      // Runtime status: nobody reported yet; gw-fra's agent reports what it applied; Refresh shows it.
      await sectionLink(page, "Runtime status").click();
      const fraRow = page.getByRole("row", { name: /^gw-fra / });
      expect(await fraRow.textContent()).toContain("unreported");
      await reportAsAgent(server.baseUrl, admin, gatewayNamed("edge-fra-1"), nodes[0]?.id ?? "");
      await page.getByRole("link", { name: "Refresh" }).click();
      await page.getByRole("row", { name: /^gw-fra .*in sync/ }).waitFor();
      expect(await page.getByRole("row", { name: /^gw-ams / }).textContent()).toContain("unreported");

      expect(tab.blocked).toEqual([]);
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("offers a viewer no form that changes anything, and the API refuses the viewer's hand-made POST", async () => {
    expect(built.networkId, "the operator test built the network").not.toBe("");
    // Accounts come from invitations or the platform admin (API); making someone a viewer is the group page's.
    const viewer = { email: "viewer@e2e.test", password: "a long enough password" };
    expectAnswer(await admin.POST("/api/v1/users", { body: { ...viewer, name: "Vera Viewer" } }), 201, "viewer account");
    const owner = await signInConsole(chromium, server.baseUrl, server.admin);
    try {
      await owner.page.goto(`${server.baseUrl}/groups/${built.groupId}`);
      const addMember = owner.page.getByRole("region", { name: "Add a member" });
      await addMember.getByLabel("Email or user id").fill(viewer.email);
      await addMember.getByLabel("Role").selectOption("viewer");
      await addMember.getByRole("button", { name: "Add member" }).click();
      await owner.page.getByRole("row", { name: new RegExp(viewer.email) }).waitFor();
    } finally {
      await owner.close();
    }
    const members = expectAnswer(await admin.GET("/api/v1/groups/{id}/members", byId(built.groupId)), 200, "members").items;
    expect(members.find((member) => member.email === viewer.email)?.role).toBe("viewer");

    const tab = await signInConsole(chromium, server.baseUrl, viewer);
    const { page } = tab;
    try {
      const base = `/networks/${built.networkId}`;
      const pages = ["/networks", base, `${base}/nodes`, `${base}/policies`, `${base}/dns`, `${base}/status`];
      pages.push(`/groups/${built.groupId}`, "/devices", "/tunnels", "/notifications", "/audit");
      for (const path of pages) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        // The viewer's own business, not the group's: leaving it, and the account's own notification channels.
        const offered = (await changingButtons(page)).filter((label) => !OWN_ACCOUNT_ACTIONS.includes(label));
        expect(offered, `buttons that change something on ${path}`).toEqual([]);
      }
      // The data is there to read.
      await page.goto(`${server.baseUrl}${base}/dns`);
      await page.getByRole("row", { name: /db A 10\.60\.0\.200/ }).waitFor();

      // The CSRF token from the only form a viewer has (Sign out), and a POST the page never offered.
      const token = await page.locator('form[action="/sign-out"] input[type=hidden]').getAttribute("value");
      const tokenField = await page.locator('form[action="/sign-out"] input[type=hidden]').getAttribute("name");
      const forged = await page.request.post(`${server.baseUrl}${base}/dns/records`, {
        form: { [tokenField ?? ""]: token ?? "", name: "sneaky", type: "A", value: "10.60.0.201" },
        headers: { Origin: server.baseUrl },
        maxRedirects: 0,
      });
      // The console's CSRF check passed (same origin, the session's token): the refusal is the API's own.
      const direct = await typedApi(server.baseUrl, await login(server.baseUrl, viewer)).POST("/api/v1/networks/{id}/dns/records", {
        ...byId(built.networkId),
        body: { name: "sneaky", type: "A", value: "10.60.0.201" },
      });
      expect(direct.response.status).toBe(403);
      const message = (direct.error as { error: { message: string } }).error.message;
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain(escapeHtml(message));
      const records = expectAnswer(await admin.GET("/api/v1/networks/{id}/dns/records", byId(built.networkId)), 200, "records").items;
      expect(records.map((record) => record.name)).not.toContain("sneaky");
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
