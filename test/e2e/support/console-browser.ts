// The console in Chromium: sign-in through its form, and the checks every console page gets in the browser
// tests (what a viewer could change, accessibility by axe-core, horizontal overflow).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { type OriginPage, openOriginPage } from "./browser.ts";

const AXE_SOURCE = readFileSync(fileURLToPath(new URL("../../../node_modules/axe-core/axe.min.js", import.meta.url)), "utf8");

/** A fresh tab (origin-only, problems collected) signed in through the console's form, on the networks page. */
export async function signInConsole(browser: Browser, baseUrl: string, user: { email: string; password: string }): Promise<OriginPage> {
  const tab = await openOriginPage(browser, baseUrl);
  try {
    await tab.page.goto(`${baseUrl}/sign-in`);
    await tab.page.getByLabel("Email").fill(user.email);
    await tab.page.getByLabel("Password").fill(user.password);
    await tab.page.getByRole("button", { name: "Sign in" }).click();
    await tab.page.getByRole("heading", { name: "Networks", level: 1 }).waitFor();
    return tab;
  } catch (error) {
    await tab.close();
    throw error;
  }
}

/**
 * The enabled submit buttons of the forms that would change something (method post), by their text, the
 * header's "Sign out" left out: what a viewer must not be offered. GET forms (a filter, a node picker) change nothing.
 */
export async function changingButtons(page: Page): Promise<string[]> {
  // A string, not a function: the tests compile without the DOM's types (tsconfig has no "dom" lib).
  const labels = await page.evaluate<string[]>(`
    [...document.querySelectorAll("form")]
      .filter((form) => form.method.toLowerCase() === "post")
      .flatMap((form) => [...form.querySelectorAll("button:not([type]), button[type=submit], input[type=submit]")])
      .filter((button) => !button.disabled)
      .map((button) => (button.textContent || button.value).trim().replace(/\\s+/g, " "))`);
  return labels.filter((label) => label !== "Sign out");
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's WCAG 2.x A/AA rules on the page as it is now; the violations of impact serious or critical, each
 * with the selectors of the elements at fault (for the failure message). The script goes in through the
 * DevTools protocol (page.evaluate), which the console's CSP (script-src 'self') does not govern.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(`
    axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } })
      .then((result) => result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(" ")),
      })))`);
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** How many CSS pixels the page is wider than the viewport (0: no horizontal scroll on the body). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
}
