// Issue 29's "done when": a first-run operator in Chromium, from an empty server to a device pinging through a
// 2-hop chain, by role and label, no id typed or put in a URL by hand. The gateways are enrolled and run with
// the commands the console shows, pasted as they are (plus --netns: each lab machine is a namespace), and the
// device joins with the console's `wgo up` command. Host state (namespaces, wireguard-go): project e2e, not e2e-web.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeInChromium, launchBrowser, type OriginPage } from "../support/browser.ts";
import { signInConsole } from "../support/console-browser.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { hopBytes, nodesNamed, peerKeys } from "./chain-path.ts";
import { labMachine, type RunningCommand, runShown, startShown } from "./shown-commands.ts";
import { addGatewayNode, checklist, createInventory, refreshUntil, shownCommands, stepTimer } from "./console-steps.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the first-run e2e: ${dataPlane.reason} !!!\n`);

const LAN = "192.168.96.0/24";
const DESTINATION = "192.168.96.10";
const DEVICE_IF = `wf${Date.now().toString(36).slice(-6)}`;
/** Bounds of the waits below: on the 2-core machine under other suites a step takes a few seconds at most. */
const AGENT_KEY_MS = 60_000;
const HEALTHY_MS = 60_000;
const PING_MS = 30_000;

describeInChromium("a first-run operator, from an empty server to a ping through a 2-hop chain", () => {
  describe.skipIf(!dataPlane.ok)("with real gateways and a device in namespaces", () => {
    let server: WorkerServer;
    let chromium: Browser;
    let tab: OriginPage;
    let page: Page;
    let lab: Lab;
    let hosts: Record<"d" | "ga" | "gb", Host>;
    let underlay: string[];
    const agents: RunningCommand[] = [];
    const scratch = mkdtempSync(join(tmpdir(), "wgo-first-run-"));
    const machine = (host: Host) => labMachine(scratch, host.namespace, host.name);
    const agentOutput = () => agents.map((agent, index) => `## agent ${index + 1}\n${agent.output()}`).join("\n");
    const { timed, timings } = stepTimer();

    const networkTab = (name: string) => page.getByRole("navigation", { name: "Network sections" }).getByRole("link", { name });
    const nodeRow = (name: string) => page.getByRole("row", { name: new RegExp(`^${name} `) });

    /** Runs the enrol and run commands shown for a gateway on its machine; waits for its row to show the agent's key. */
    async function enrolAndRun(gateway: { node: string; host: Host }) {
      const shown = await shownCommands(page.getByRole("status").filter({ hasText: `Added ${gateway.node}` }));
      const enrol = shown.find((command) => command.startsWith("wgo gateway enrol "));
      expect(enrol, "the enrol command carries a real token").toMatch(/ --token aet_[\w-]+$/);
      expect(shown).toContain("wgo gateway run");
      await timed(`enrol ${gateway.node}`, () => runShown(machine(gateway.host), enrol ?? ""));
      agents.push(startShown(machine(gateway.host), "wgo gateway run", ["--netns", gateway.host.namespace]));
      // The agent makes the node's key on its first round: the row's key replaces "awaiting agent". The page
      // is a POST's answer: the person opens the Nodes tab again rather than reloading (which would re-post).
      const keyed = async () => !(await nodeRow(gateway.node).textContent())?.includes("awaiting agent");
      await timed(`key of ${gateway.node}`, () =>
        refreshUntil(() => networkTab("Nodes").click(), `${gateway.node}'s agent key`, keyed, {
          timeoutMs: AGENT_KEY_MS,
          details: agentOutput,
        }),
      );
    }

    beforeAll(async () => {
      [server, chromium] = await Promise.all([startWorker(), launchBrowser()]);
      lab = createLab("firstrun");
      hosts = { d: await lab.addHost("d"), ga: await lab.addHost("ga"), gb: await lab.addHost("gb") };
      underlay = await lab.connect([hosts.d, hosts.ga, hosts.gb], "10.250.65.0/24");
      // The LAN behind gateway B, with one machine on it to ping.
      await hosts.gb.addStandInDestination(`${DESTINATION}/24`);
      tab = await signInConsole(chromium, server.baseUrl, server.admin);
      page = tab.page;
    });

    afterAll(async () => {
      for (const agent of agents) await agent.stop();
      // wgo leaves wireguard-go running when it exits (systemd's KillMode=process): cleaned up by namespace.
      await killLabProcesses(lab);
      await lab?.cleanup();
      await tab?.close();
      await chromium?.close();
      await server?.stop();
      rmSync(scratch, { recursive: true, force: true });
      console.log(`first run: step times (ms) ${JSON.stringify(timings)}`);
    });

    it("builds a group, a network, the inventory and two gateway nodes, each enrolled with the commands shown", async () => {
      // The empty server's first page says a network needs a group, and links to making one.
      await page.getByText("No networks yet.").waitFor();
      await page.getByRole("link", { name: "create a group" }).click();
      await page.getByLabel("Name", { exact: true }).fill("ops");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.getByRole("heading", { name: "Group ops", level: 1 }).waitFor();
      await page.getByRole("link", { name: "Create a network in ops" }).click();
      await page.getByLabel("Name", { exact: true }).fill("corp");
      await page.getByLabel("Address range (CIDR)").fill("10.65.0.0/24");
      await page.getByRole("button", { name: "Create network" }).click();
      await page.getByRole("heading", { name: "corp", level: 1 }).waitFor();
      expect(await checklist(page)).toEqual([
        "Done: Group",
        "Done: Network",
        "Next: Gateway nodes Add a gateway node on an inventory gateway",
        "To do: Gateway agents",
        "To do: Routing policy",
        "To do: Device",
      ]);

      // The checklist's next step; the form has no gateway to offer yet and links to the inventory, and back.
      await page.getByRole("link", { name: "Add a gateway node on an inventory gateway" }).click();
      await page.getByRole("link", { name: "Add a gateway to the inventory" }).click();
      await createInventory(page, "eu-west", ["edge-a", "edge-b"]);
      await page.getByRole("link", { name: "Back to adding the gateway node" }).click();

      const gwA = { node: "gw-a", inventory: "edge-a", host: hosts.ga, endpoint: `${underlay[1]}:51820` };
      const gwB = { node: "gw-b", inventory: "edge-b", host: hosts.gb, endpoint: `${underlay[2]}:51820` };
      // gw-a: enrolled from the steps the console shows right after adding it.
      await addGatewayNode(page, gwA);
      expect(await nodeRow("gw-a").textContent(), "a keyless gateway node awaits its agent").toContain("awaiting agent");
      await page.getByRole("button", { name: "Issue agent enrolment token", exact: true }).click();
      await enrolAndRun(gwA);
      // gw-b: added, left, and enrolled later from the checklist's "Gateway agents" step.
      await addGatewayNode(page, gwB);
      await networkTab("Overview").click();
      expect((await checklist(page))[3]).toBe("Next: Gateway agents (awaiting: gw-b) Enrol the agent on each gateway (wgo gateway enrol)");
      await page.getByRole("link", { name: "Enrol the agent on each gateway (wgo gateway enrol)" }).click();
      await page.getByRole("button", { name: "Issue agent enrolment token for gw-b" }).click();
      await enrolAndRun(gwB);
      await networkTab("Overview").click();
      expect((await checklist(page)).slice(2, 5)).toEqual([
        "Done: Gateway nodes",
        "Done: Gateway agents",
        "Next: Routing policy Create a via-gateway policy through the gateways",
      ]);
      expect(tab.problems).toEqual([]);
    });

    it("routes a LAN behind gw-b through gw-a then gw-b, both shown healthy", async () => {
      await page.getByRole("link", { name: "Create a via-gateway policy through the gateways" }).click();
      const create = page.getByRole("region", { name: "Create a routing policy" });
      await create.getByLabel("Name").fill("to-lan");
      await create.getByLabel("Destination (CIDR)").fill(LAN);
      await create.getByLabel("Hop 1").selectOption({ label: "gw-a (gateway node)" });
      await create.getByLabel("Hop 2").selectOption({ label: "gw-b (gateway node)" });
      await create.getByRole("button", { name: "Create policy" }).click();
      const hops = page.getByRole("list", { name: "Hops of to-lan, in order" }).getByRole("listitem");
      const healthy = [
        "source: the network's nodes that use this policy",
        "then gw-a (healthy, active), transit",
        "then gw-b (healthy, active), egress",
        `then destination ${LAN}`,
      ];
      await timed("chain healthy", () =>
        refreshUntil(
          () => page.reload(),
          "both hops healthy",
          async () => JSON.stringify(await hops.allTextContents()) === JSON.stringify(healthy),
          {
            timeoutMs: HEALTHY_MS,
            details: agentOutput,
          },
        ),
      );
      await networkTab("Overview").click();
      expect((await checklist(page)).slice(4)).toEqual(["Done: Routing policy", "Next: Device Enrol a device with wgo up"]);
    });

    it("enrols a device with the console's `wgo up` command, sees it online, and it pings the LAN through gw-a then gw-b", async () => {
      await page.getByRole("link", { name: "Enrol a device with wgo up" }).click();
      await page.getByLabel("Name", { exact: true }).fill("laptops");
      await page.getByLabel("How many machines may use it").fill("1");
      await page.getByRole("button", { name: "Create enrolment key" }).click();
      // The block shows the key alone, then the command that uses it.
      const up = (await shownCommands(page.getByRole("region", { name: "Enrolment key" }))).find((shown) => shown.startsWith("wgo up "));
      expect(up).toMatch(/^wgo up --api \S+ --network \S+ --enrolment-key \S+$/);
      // The lab's machines share one /run/wireguard: an interface name of its own instead of the default wg0.
      await timed("wgo up", () => runShown(machine(hosts.d), up ?? "", ["--netns", hosts.d.namespace, "--interface", DEVICE_IF]));

      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Devices" }).click();
      // Named after this host by `wgo up` (a DNS label of it); the only device of corp.
      const device = page.getByRole("row", { name: /^[a-z0-9-]+ corp / });
      expect(await device.textContent(), "`wgo up` reports once: the device is seen at once").toContain("online");

      const reached = await timed("first ping", () => hosts.d.pingUntilReply(DESTINATION, PING_MS));
      expect(reached, reached ? "" : `${await describeLab(lab)}\n${agentOutput()}`).toBe(true);

      // The path: the device's only peer is gw-a; gw-a sends on to gw-b, which receives from gw-a.
      const [a, b] = await nodesNamed(server, ["gw-a", "gw-b"]);
      expect(await peerKeys(DEVICE_IF)).toEqual([a?.publicKey]);
      const before = await hopBytes(a!, b!);
      expect(await hosts.d.ping(DESTINATION, 5)).toBe(true);
      const after = await hopBytes(a!, b!);
      expect(after.aToB, "gw-a forwards to gw-b").toBeGreaterThan(before.aToB);
      expect(after.bFromA, "gw-b receives from gw-a").toBeGreaterThan(before.bFromA);
      expect(after.bToA, "gw-b replies through gw-a").toBeGreaterThan(before.bToA);

      // Every step done: the checklist has gone from the network's page.
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Networks" }).click();
      await page.getByRole("link", { name: "corp" }).click();
      await page.getByRole("heading", { name: "corp", level: 1 }).waitFor();
      expect(await page.getByRole("heading", { name: "Getting started" }).count()).toBe(0);
      expect(tab.blocked).toEqual([]);
      expect(tab.problems).toEqual([]);
    });

    it("leaves no namespace or process behind", async () => {
      for (const agent of agents.splice(0)) expect(await agent.stop()).toBe(0);
      await killLabProcesses(lab);
      expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
    });
  });
});
