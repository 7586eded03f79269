// A real browser for the pages the Worker serves (the API reference today, the web console next):
// playwright-core driving Debian's Chromium, headless. playwright-core downloads nothing; the browser is the
// distribution's package (`apt-get install chromium`, listed in .ci/run).
//
// Every page opened here may talk to one origin only, the server under test: anything else is aborted and
// listed, so a test proves a page works offline by asserting that list is empty. Console errors, page errors
// (a CSP violation is one) and failed same-origin requests are collected the same way.
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether the browser tests can run here; under CI=true a missing browser is a failure, not a skip. */
export function browserAvailability(): { ok: boolean; reason: string } {
  if (!existsSync(CHROMIUM)) return { ok: false, reason: `no Chromium at ${CHROMIUM} (apt-get install chromium)` };
  return { ok: true, reason: `Chromium at ${CHROMIUM}` };
}

/**
 * A suite that needs Chromium: it runs where Chromium is; elsewhere it is skipped with a loud warning, except under
 * CI=true, where a stand-in test fails ("needs Chromium") so a CI without the browser cannot pass silently.
 */
export function describeInChromium(title: string, body: () => void) {
  const availability = browserAvailability();
  const required = process.env.CI === "true";
  if (!availability.ok) console.warn(`\n!!! ${required ? "FAILING (CI=true)" : "SKIPPING"} ${title}: ${availability.reason} !!!\n`);
  describe.runIf(!availability.ok && required)(`${title} (CI)`, () => {
    it("needs Chromium", () => {
      expect.fail(`CI=true and ${availability.reason}: ${title} cannot run`);
    });
  });
  describe.skipIf(!availability.ok)(title, body);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      // Chromium refuses to start as root with its sandbox on (its user-namespace sandbox is meant to drop
      // privileges a root process would keep). The e2e suites run as root for network namespaces; the pages
      // loaded are the Worker's own, from 127.0.0.1.
      ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
      // Containers often give /dev/shm 64 MiB, too little for a renderer; /tmp works everywhere.
      "--disable-dev-shm-usage",
      // A second wall behind the request blocking below: no host resolves but the loopback address the
      // e2e servers listen on, so nothing the page router does not see (a prefetch, Chromium's own
      // background requests) can leave either. 127.0.0.2 (also loopback) plays "another site" in the
      // console's cross-site request forgery test.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE 127.0.0.2",
    ],
  });
}

export interface OriginPage {
  page: Page;
  /** Requests the page tried to send to another origin (aborted): method and URL. */
  blocked: string[];
  /** Console errors, uncaught page errors and failed requests to the origin, in the order they came. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh context (no cookies, no cache) whose page may reach `origin` and nothing else. */
export async function openOriginPage(browser: Browser, origin: string): Promise<OriginPage> {
  const allowed = new URL(origin).origin;
  const context: BrowserContext = await browser.newContext({ serviceWorkers: "block" });
  const blocked: string[] = [];
  const problems: string[] = [];
  await context.route("**/*", async (route) => {
    const request = route.request();
    if (new URL(request.url()).origin === allowed) return route.continue();
    blocked.push(`${request.method()} ${request.url()}`);
    return route.abort("blockedbyclient");
  });
  await context.routeWebSocket(/.*/, (socket) => {
    if (new URL(socket.url()).origin.replace(/^ws/, "http") === allowed) return socket.connectToServer();
    blocked.push(`WEBSOCKET ${socket.url()}`);
    return socket.close();
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText;
    // ERR_ABORTED is the browser cancelling a load because the page moved on (a form's redirect landed
    // while console.js was still in flight); a server that failed answers with a status, not this.
    if (reason === "net::ERR_ABORTED") return;
    if (new URL(request.url()).origin === allowed) problems.push(`request failed: ${request.url()} (${reason})`);
  });
  return { page, blocked, problems, close: () => context.close() };
}
