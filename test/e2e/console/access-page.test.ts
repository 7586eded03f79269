// Issue 26: the console's access page in a real browser (Debian's Chromium, playwright-core) against the real
// Worker (`wrangler dev`), by role and label: tag a node on the nodes page, write a rule with a failing test
// (refused, the failure shown at the document), fix it, read the preview's diff, apply, switch the network to
// policy mode, and ask who can reach the tagged node: the allowed source and the rule that allows it.
import { generateKeyPairSync } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { byId, expectAnswer, login, type TypedApiClient, typedApi } from "../support/api-client.ts";
import { describeInChromium, launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations, signInConsole } from "../support/console-browser.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

const publicKey = () => {
  const der = generateKeyPairSync("x25519").publicKey.export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32).toString("base64");
};

const policyText = (expect22: "allow" | "deny") =>
  JSON.stringify(
    {
      rules: [{ action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"], description: "developers reach the web tier" }],
      tests: [{ src: "tag:dev", dst: "tag:web", port: "tcp:22", expect: expect22 }],
    },
    null,
    2,
  );

describeInChromium("the console's access page in Chromium", () => {
  let server: WorkerServer;
  let chromium: Browser;
  let admin: TypedApiClient;

  beforeAll(async () => {
    [server, chromium] = await Promise.all([startWorker(), launchBrowser()]);
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  it("tags a node, refuses a failing test, previews the diff, applies, enters policy mode and says who can reach the node", async () => {
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "web-team" } }), 201, "group");
    const network = expectAnswer(
      await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "shop", cidr: "10.61.0.0/24" } }),
      201,
      "network",
    );
    const node = async (name: string, tags: string[] = []) =>
      expectAnswer(await admin.POST("/api/v1/nodes", { body: { networkId: network.id, name, publicKey: publicKey(), tags } }), 201, name);
    const web = await node("web-1");
    await node("laptop-1", ["tag:dev"]);
    await node("printer-1");

    const tab = await signInConsole(chromium, server.baseUrl, server.admin);
    const { page } = tab;
    try {
      // Tags on the nodes page.
      await page.goto(`${server.baseUrl}/networks/${network.id}/nodes`);
      await page.getByLabel("Tags of web-1").fill("tag:web");
      await page.getByRole("button", { name: "Save tags of web-1" }).click();
      await page.getByLabel("Tags of web-1").and(page.locator('[value="tag:web"]')).waitFor();
      expect(expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(web.id)), 200, "web-1").tags).toEqual(["tag:web"]);

      await page.getByRole("navigation", { name: "Network sections" }).getByRole("link", { name: "Access" }).click();
      await page.getByRole("heading", { name: "Access mode: open" }).waitFor();

      // A test that fails against the rule: the preview says so at the document and offers no Apply.
      await page.getByLabel("Policy document").fill(policyText("allow"));
      await page.getByRole("button", { name: "Preview changes" }).click();
      const alert = page.getByRole("alert");
      await expect.poll(() => alert.textContent()).toContain("1 test would fail with this document.");
      expect(await alert.textContent()).toContain("Test 1: Expected allow for 10.61.0.");
      expect(await page.getByLabel("Policy document").getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByRole("button", { name: /^Apply/ }).count()).toBe(0);

      // Fixed: the diff names who loses whom (printer-1 is in no rule), then Apply writes revision 1.
      await page.getByLabel("Policy document").fill(policyText("deny"));
      await page.getByRole("button", { name: "Preview changes" }).click();
      const peers = page.getByRole("table", { name: "Peers per node" });
      await peers.waitFor();
      expect(await peers.getByRole("row", { name: /^laptop-1/ }).textContent()).toContain("− printer-1");
      expect(await page.getByRole("table", { name: "Flows that change" }).textContent()).toContain("web-1");
      await page.getByRole("button", { name: "Apply as revision 1" }).click();
      await page.getByRole("status").filter({ hasText: "Revision 1 of the access policy is in force." }).waitFor();
      expect(await page.getByRole("row", { name: /^1 tag:dev tag:web tcp:22 deny/ }).textContent()).toContain("passes");

      // Policy mode, behind its warning.
      expect(await page.getByText(/Warning: in policy mode every node loses/).count()).toBe(1);
      await page.getByRole("button", { name: "Switch to policy mode" }).click();
      await page.getByRole("heading", { name: "Access mode: policy" }).waitFor();
      expect(expectAnswer(await admin.GET("/api/v1/networks/{id}", byId(network.id)), 200, "network").accessMode).toBe("policy");

      // Who can reach web-1, and why.
      await page.getByLabel("Node", { exact: true }).selectOption({ label: `web-1 (${web.address})` });
      await page.getByRole("button", { name: "Show who can reach it" }).click();
      const row = page.getByRole("row", { name: /^laptop-1/ });
      await row.waitFor();
      expect((await row.textContent())?.replace(/\s+/g, " ")).toBe(
        "laptop-1tcp:443Allowed by Rule 1: allow tag:dev → tag:web on tcp:443 (developers reach the web tier)",
      );
      expect(await page.getByRole("row", { name: /^printer-1/ }).count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
