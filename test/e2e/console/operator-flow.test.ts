// Issue 18: an operator's work through the console in a real browser (Debian's Chromium, playwright-core)
// against the real Worker (`wrangler dev`), by role and label as a person (or a screen reader) finds things:
// a network, two gateway nodes, a 2-hop via_gateway policy and its chain, a DNS record and the Corefile
// download, runtime status before and after a gateway's agent reports; then a viewer of the same group, who is
// offered nothing that changes anything and whose hand-made POST the API refuses.
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, type TypedApiClient, typedApi } from "../support/api-client.ts";
import { browserAvailability, launchBrowser } from "../support/browser.ts";
import { changingButtons, signInConsole } from "../support/console-browser.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

const browser = browserAvailability();
const requireBrowser = process.env.CI === "true";

describe.runIf(!browser.ok && requireBrowser)("the console's operator flow in Chromium (CI)", () => {
  it("needs Chromium", () => {
    expect.fail(`CI=true and ${browser.reason}: the console browser tests cannot run`);
  });
});

describe.skipIf(!browser.ok)("the console's operator flow in Chromium", () => {
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
    // What the console does not do: the platform's gateway inventory (a region, two gateways).
    const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "eu-central" } }), 201, "region");
    const inventory = [];
    for (const name of ["edge-fra-1", "edge-ams-1"]) {
      inventory.push(expectAnswer(await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name } }), 201, name));
    }
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "platform-team" } }), 201, "group");
    built.groupId = group.id;

    const tab = await signInConsole(chromium, server.baseUrl, server.admin);
    const { page } = tab;
    try {
      await page.getByLabel("Group").selectOption({ label: "platform-team" });
      await page.getByLabel("Name", { exact: true }).fill("corp");
      await page.getByLabel("Address range (CIDR)").fill("10.60.0.0/24");
      await page.getByLabel("DNS domain (optional)").fill("corp.internal");
      await page.getByRole("button", { name: "Create network" }).click();
      await page.getByRole("heading", { name: "corp", level: 1 }).waitFor();
      const networkId = new URL(page.url()).pathname.split("/")[2] ?? "";
      built.networkId = networkId;
      expect(expectAnswer(await admin.GET("/api/v1/networks/{id}", byId(networkId)), 200, "network")).toMatchObject({
        groupId: group.id,
        cidr: "10.60.0.0/24",
        dnsDomain: "corp.internal",
      });

      // Two gateway nodes, each on its inventory gateway, their keys left to the gateways' agents.
      await sectionLink(page, "Nodes").click();
      await page.getByText("No nodes yet.").waitFor();
      const gateways = [
        { name: "gw-fra", endpoint: "198.51.100.10:51820", gatewayId: inventory[0]?.id ?? "" },
        { name: "gw-ams", endpoint: "198.51.100.20:51820", gatewayId: inventory[1]?.id ?? "" },
      ];
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
      await hops.first().waitFor();
      expect(await hops.allInnerTexts()).toEqual([
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
      await page.getByLabel("Value").fill("10.60.0.200");
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
      await reportAsAgent(server.baseUrl, admin, inventory[0]?.id ?? "", nodes[0]?.id ?? "");
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
    const viewer = { email: "viewer@e2e.test", password: "a long enough password" };
    const user = expectAnswer(await admin.POST("/api/v1/users", { body: { ...viewer, name: "Vera Viewer" } }), 201, "viewer");
    expectAnswer(
      await admin.POST("/api/v1/groups/{id}/members", { ...byId(built.groupId), body: { userId: user.id, role: "viewer" } }),
      201,
      "membership",
    );

    const tab = await signInConsole(chromium, server.baseUrl, viewer);
    const { page } = tab;
    try {
      const base = `/networks/${built.networkId}`;
      for (const path of ["/networks", base, `${base}/nodes`, `${base}/policies`, `${base}/dns`, `${base}/status`]) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        expect(await changingButtons(page), `changing buttons on ${path}`).toEqual([]);
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

/** What a gateway machine's agent does: enrol for its inventory gateway, read the desired state, report it applied. */
async function reportAsAgent(baseUrl: string, admin: TypedApiClient, gatewayId: string, nodeId: string): Promise<void> {
  const issued = expectAnswer(
    await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId } }),
    201,
    "agent enrolment token",
  );
  const enrolled = expectAnswer(
    await typedApi(baseUrl).POST("/api/v1/agents/enrol", { body: { token: issued.token, name: "fra-agent", version: "1.0.0" } }),
    201,
    "agent enrol",
  );
  const agent = typedApi(baseUrl, enrolled.credential);
  const desired = expectAnswer(await agent.GET("/api/v1/agents/me/desired-state"), 200, "desired state");
  const entry = desired.nodes.find((node) => node.nodeId === nodeId);
  if (!entry?.config) throw new Error(`the agent's desired state has no config for node ${nodeId}: ${JSON.stringify(desired)}`);
  expectAnswer(
    await agent.POST("/api/v1/agents/me/report", {
      body: {
        nodes: [{ nodeId, appliedRoutingRevision: entry.config.routingRevision, appliedDnsRevision: entry.dns?.revision, peers: [] }],
      },
    }),
    200,
    "agent report",
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
