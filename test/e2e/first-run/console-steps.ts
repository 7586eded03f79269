// The first-run test's console steps, as a person does them: by role and label, options picked by the name
// they show, commands read from the page's command blocks, pages reloaded while waiting on a machine.
import type { Locator, Page } from "playwright-core";
import { waitFor } from "../support/command.ts";

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();

/** The "Getting started" checklist of a network's page, a line per step ("Done: Group", "Next: … link text"). */
export async function checklist(page: Page): Promise<string[]> {
  const steps = page.getByRole("region", { name: "Getting started" }).getByRole("listitem");
  await steps.first().waitFor();
  return (await steps.allTextContents()).map(squeeze);
}

/** The command blocks (<pre><code>) inside `where`, as a copy button copies them. */
export async function shownCommands(where: Locator): Promise<string[]> {
  await where.locator("pre code").first().waitFor();
  return (await where.locator("pre code").allTextContents()).map(squeeze);
}

/** On the inventory page: a region, then each gateway in it. */
export async function createInventory(page: Page, region: string, gateways: string[]): Promise<void> {
  await page.getByLabel("Region name").fill(region);
  await page.getByRole("button", { name: "Add region" }).click();
  for (const name of gateways) {
    await page.getByLabel("Region", { exact: true }).selectOption({ label: region });
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Add gateway" }).click();
    await page.getByRole("cell", { name, exact: true }).waitFor();
  }
}

/** The option of `select` whose text begins with `name` and a space ("edge-a (active, unknown) …"). */
async function optionNamed(select: Locator, name: string): Promise<string> {
  const labels = (await select.locator("option").allTextContents()).map(squeeze);
  const label = labels.find((text) => text.startsWith(`${name} `));
  if (!label) throw new Error(`no option for ${name} among ${JSON.stringify(labels)}`);
  return label;
}

/** On a network's Nodes page: a gateway node on an inventory gateway, its key left to the agent. */
export async function addGatewayNode(page: Page, gateway: { node: string; inventory: string; endpoint: string }): Promise<void> {
  const form = page.getByRole("region", { name: "Add a node" });
  await form.getByLabel("Name", { exact: true }).fill(gateway.node);
  await form.getByLabel("Endpoint (optional)").fill(gateway.endpoint);
  await form.getByLabel("Listen port (optional)").fill(gateway.endpoint.split(":").pop() ?? "");
  await form.getByLabel(/This node is a gateway/).check();
  const select = form.getByLabel("Inventory gateway");
  await select.selectOption({ label: await optionNamed(select, gateway.inventory) });
  await form.getByRole("button", { name: "Add node" }).click();
  await page.getByRole("heading", { name: `Added ${gateway.node}` }).waitFor();
}

/** Refreshes the page (F5, or a tab link) until `probe` holds, at most `timeoutMs`, once a second. */
export async function refreshUntil(
  refresh: () => Promise<unknown>,
  what: string,
  probe: () => Promise<boolean>,
  { timeoutMs, details }: { timeoutMs: number; details?: () => string },
): Promise<void> {
  let first = true;
  await waitFor(
    what,
    async () => {
      if (!first) await refresh();
      first = false;
      return probe();
    },
    { timeoutMs, intervalMs: 1000, details },
  );
}

/** How long each named step took (ms), for the run's log: the margins against the waits' bounds. */
export function stepTimer() {
  const timings: Record<string, number> = {};
  const timed = async <T>(label: string, step: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await step();
    timings[label] = Date.now() - started;
    return result;
  };
  return { timed, timings };
}
