// Issue 17: the API reference renders in a real browser with no way out of the Worker's origin. Chromium opens
// /api/v1/docs on `wrangler dev` with every other origin blocked (and no host name resolving); the page must
// load its UI from the Worker, break no CSP rule, log no error, and show the operations of our document.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium, launchBrowser, openOriginPage } from "../support/browser.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

// A few operations whose summaries must appear, read from the served document (the wording may change).
const OPERATIONS = [
  ["post", "/api/v1/auth/login"],
  ["post", "/api/v1/networks"],
  ["get", "/api/v1/nodes/{id}/config"],
] as const;

describeInChromium("the docs page in Chromium, offline", () => {
  let server: WorkerServer;
  let chromium: Browser;

  beforeAll(async () => {
    [server, chromium] = await Promise.all([startWorker(), launchBrowser()]);
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  it("renders the operations from the Worker alone: nothing blocked, no console or CSP error", async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    const operations = OPERATIONS.map(([method, path]) => document.paths[path]?.[method]);
    expect(
      operations.every((operation) => operation?.summary && operation.tags[0]),
      JSON.stringify(operations),
    ).toBe(true);

    const tab = await openOriginPage(chromium, server.baseUrl);
    try {
      const response = await tab.page.goto(`${server.baseUrl}/api/v1/docs`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      const sidebar = tab.page.getByRole("navigation");
      for (const { summary, tags } of operations as { summary: string; tags: string[] }[]) {
        try {
          // The first tag's group is open; a reader opens the others in the sidebar ("Auth Open Group").
          const group = sidebar.getByRole("button", { name: new RegExp(`^${tags[0]} `) }).first();
          await group.waitFor({ timeout: 30_000 });
          if ((await group.getAttribute("aria-expanded")) !== "true") await group.click();
          await tab.page.getByText(summary, { exact: true }).first().waitFor({ state: "visible", timeout: 30_000 });
        } catch (error) {
          // A white page says little by itself: show what the page tried and what it logged.
          const seen = {
            blocked: tab.blocked,
            problems: tab.problems,
            shown: ((await tab.page.locator("body").textContent()) ?? "").slice(0, 1500),
          };
          throw new Error(`"${summary}" was not shown: ${(error as Error).message}\n${JSON.stringify(seen, null, 2)}`);
        }
      }
      // Late requests (the document's fetch, lazy chunks) have settled before the lists are read.
      await tab.page.waitForLoadState("networkidle");
      expect(tab.blocked, "requests that tried to leave the Worker's origin").toEqual([]);
      expect(tab.problems, "console errors, page errors, failed requests").toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
