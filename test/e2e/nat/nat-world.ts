// The NAT e2e fixture: the lab (nat-lab.ts), the real Worker with its NAT timing knobs lowered, the API on the
// lab's internet (edge-proxy.ts), one network with a public relay gateway run by `wgo gateway run`, and the two
// laptops, each running wgo inside its own home (so its API requests leave through its NAT router too).
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, type ApiClient, byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { onAbruptExit, run, waitFor } from "../support/command.ts";
import { killLabProcesses } from "../support/lab-leftovers.ts";
import type { Host } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { startAgent, wgoArgv, wgoEnv, type AgentProcess } from "../gateway/agent-process.ts";
import { agentDomain, agentInterface } from "../gateway/chain-network.ts";
import { watchPing } from "../gateway/ping-watch.ts";
import { startEdgeProxy, type EdgeProxy } from "./edge-proxy.ts";
import { createHomesNetwork, RELAY_PORT } from "./homes-network.ts";
import { createNatLab, type Home, type NatLab, type NatMode } from "./nat-lab.ts";
import { Laptop } from "./laptop.ts";
import { RelayCounters } from "./relay-counters.ts";

/**
 * The server's NAT knobs (issue 28 contract), lowered so a file takes about a minute, with margins for a
 * 2-core machine shared with other suites. A port-preserving pair handshakes under a second after both hold
 * each other's candidates (nat-lab.test.ts), and the laptops beat every 2 s, so 10 s without a handshake is
 * 5 beats of margin before a pair is moved onto the relay by mistake (the default is 20 s). The hold (30 s,
 * default 60 s) and the candidate TTL (300 s, default 600 s) stay longer than any file's run, so neither
 * a move back nor an expiry happens in the middle of an assertion.
 */
export const NAT_TIMING = {
  NAT_DIRECT_TIMEOUT_SECONDS: "10",
  NAT_RELAY_HOLD_SECONDS: "30",
  NAT_CANDIDATE_TTL_SECONDS: "300",
};

export class NatWorld {
  networkId = "";
  relayNodeId = "";
  agent: AgentProcess | undefined;
  laptops: [Laptop, Laptop] = [] as never;
  /** l3, beside l1 in home 1 (same public address), when the world was opened with a neighbour. */
  neighbour: Laptop | undefined;
  counters!: RelayCounters;
  readonly scratch = mkdtempSync(join(tmpdir(), "wgo-nat-"));
  // A run stopped before afterAll: the lab's namespaces and daemons go (netns.ts), and the state here.
  private readonly unregister = onAbruptExit(() => rmSync(this.scratch, { recursive: true, force: true }));

  constructor(
    readonly server: WorkerServer,
    readonly admin: TypedApiClient,
    /** Untyped, for /metrics (text). */
    readonly raw: ApiClient,
    readonly net: NatLab,
    readonly edge: EdgeProxy,
  ) {}

  /** Where the relay's node lives on its host: `wgo gateway run`'s routing domain for this network. */
  relayDomain = () => agentDomain(this.net.relay.namespace, this.networkId);
  relayInterface = () => agentInterface(this.relayNodeId);

  /**
   * The start every suite makes: the relay ready, `wgo up` on `a` then `b` (each then follows its config as the
   * device's service would), the relay's counters on the pair, and `a` pinging `b`. `started`: before the first up.
   */
  async bringUp(a: Laptop, b: Laptop) {
    await this.relayReady();
    const started = Date.now();
    for (const laptop of [a, b]) {
      await laptop.up();
      laptop.follow();
    }
    await this.counters.install(a.overlay, b.overlay);
    return { started, pings: watchPing(a.host.namespace, b.overlay) };
  }

  async paths(nodeId: string) {
    return expectAnswer(await this.admin.GET("/api/v1/nodes/{id}/paths", byId(nodeId)), 200, `paths of ${nodeId}`);
  }

  /** The path laptop `from` has to laptop `to`, as the server tells it. */
  async pathBetween(from: Laptop, to: Laptop) {
    return (await this.paths(from.nodeId)).items.find((item) => item.peerNodeId === to.nodeId);
  }

  /** /metrics' `wgo_network_peer_paths{network_id, path}` for this network: its pairs on `path` (0 without a series). */
  async pairsOnPath(path: "direct" | "relay"): Promise<number> {
    const scraped = await this.raw.get<string>("/metrics");
    if (scraped.status !== 200) throw new Error(`GET /metrics: ${scraped.status} ${scraped.text}`);
    const series = scraped.text
      .split("\n")
      .find(
        (line) =>
          line.startsWith("wgo_network_peer_paths{") && line.includes(`network_id="${this.networkId}"`) && line.includes(`path="${path}"`),
      );
    return series ? Number(series.split(" ").pop()) : 0;
  }

  async relayPublicKey(): Promise<string> {
    const node = expectAnswer(await this.admin.GET("/api/v1/nodes/{id}", byId(this.relayNodeId)), 200, "relay node");
    return node.publicKey ?? "";
  }

  /** WireGuard's own transfer counters on the relay, per laptop (what it received from and sent to each). */
  async relayPeerCounters(): Promise<Record<string, { rxBytes: number; txBytes: number }>> {
    const dump = await run(["ip", "netns", "exec", this.relayDomain(), "wg", "show", this.relayInterface(), "dump"]);
    const counters: Record<string, { rxBytes: number; txBytes: number }> = {};
    for (const line of dump.stdout.trim().split("\n").slice(1)) {
      const [key, , , , , rx, tx] = line.split("\t");
      const laptop = this.laptops.find((l) => l.publicKey === key);
      if (laptop) counters[laptop.name] = { rxBytes: Number(rx), txBytes: Number(tx) };
    }
    return counters;
  }

  all = (): Laptop[] => [...this.laptops, ...(this.neighbour ? [this.neighbour] : [])].filter(Boolean);

  /** Everything an assertion message needs: paths, endpoints, the routers' mappings, the agent and wgo logs. */
  async details(): Promise<string> {
    const parts: string[] = [];
    for (const laptop of this.all()) {
      const paths = laptop.nodeId ? await this.paths(laptop.nodeId).catch((error) => String(error)) : "(not enrolled)";
      parts.push(`## ${laptop.name} paths\n${JSON.stringify(paths)}\n## ${laptop.name} wg\n${await laptop.wgShow()}`);
      parts.push(
        `## ${laptop.name}'s router mappings\n${await this.net.udpMappings(laptop.home)}\n## ${laptop.name} wgo\n${laptop.output()}`,
      );
    }
    const relayWg = await run(["ip", "netns", "exec", this.relayDomain(), "wg", "show", this.relayInterface(), "dump"]);
    parts.push(`## relay wg\n${relayWg.stdout}${relayWg.stderr}\n## relay agent\n${this.agent?.output().slice(-4000) ?? ""}`);
    return parts.join("\n");
  }

  /** Waits until the relay node has its agent's key and runs the network's current routing revision. */
  async relayReady(): Promise<void> {
    await waitFor(
      "the relay gateway to be keyed and in sync",
      async () => {
        const node = expectAnswer(await this.admin.GET("/api/v1/nodes/{id}", byId(this.relayNodeId)), 200, "relay node");
        if (node.publicKey === null) return false;
        const status = expectAnswer(await this.admin.GET("/api/v1/networks/{id}/runtime-status", byId(this.networkId)), 200, "status");
        return ![...status.routing.lagging, ...status.routing.unreported].includes(this.relayNodeId);
      },
      { timeoutMs: 60_000, intervalMs: 250, details: () => this.agent?.output() ?? "" },
    );
  }

  async close(): Promise<void> {
    for (const laptop of this.all()) await laptop.stopFollowing();
    await this.agent?.stop();
    await killLabProcesses(this.net.lab);
    await this.edge.stop();
    await this.net.cleanup();
    await this.server.stop();
    rmSync(this.scratch, { recursive: true, force: true });
    this.unregister();
  }
}

/**
 * A Worker (with `vars`), the lab with the homes' NAT `modes`, the network `10.<octet>.0.0/24`, its relay
 * gateway node (public endpoint on the relay host) enrolled and run by `wgo gateway run`, and two laptops
 * (three with `neighbour`: l3 beside l1) that have an enrolment key but are not up yet.
 */
export async function openNatWorld(
  prefix: string,
  octet: number,
  modes: [NatMode, NatMode],
  vars: Record<string, string>,
  { neighbour = false } = {},
) {
  const server = await startWorker({ vars });
  let world: NatWorld | undefined;
  try {
    const token = await login(server.baseUrl, server.admin);
    const net = await createNatLab(prefix, modes, { neighbour });
    const edge = await startEdgeProxy(net.api, net.apiAddress, server.baseUrl).catch(async (error) => {
      await net.cleanup();
      throw error;
    });
    world = new NatWorld(server, typedApi(server.baseUrl, token), api(server.baseUrl, token), net, edge);
    const homes = await createHomesNetwork(world.admin, {
      cidr: `10.${octet}.0.0/24`,
      relayEndpoint: `${net.relayAddress}:${RELAY_PORT}`,
    });
    world.networkId = homes.networkId;
    world.relayNodeId = homes.relayNodeId;
    const stateDir = join(world.scratch, "relay");
    const enrol = ["--api", server.baseUrl, "gateway", "enrol", "--token", homes.relayToken, "--state-dir", stateDir];
    const enrolled = await run(wgoArgv(enrol), { env: wgoEnv });
    if (enrolled.code !== 0) throw new Error(`wgo gateway enrol: ${enrolled.stderr}`);
    world.agent = startAgent(stateDir, net.relay.namespace);
    const suffix = randomBytes(2).toString("hex");
    const laptop = (name: string, host: Host, home: Home) =>
      new Laptop(name, `wn${name.slice(1)}${suffix}`, host, home, edge.url, join(world!.scratch, name), homes.enrolmentKey);
    world.laptops = net.homes.map((home, index) => laptop(`l${index + 1}`, home.laptop, home)) as [Laptop, Laptop];
    const beside = net.homes[0].neighbour;
    if (beside) world.neighbour = laptop("l3", beside, net.homes[0]);
    world.counters = new RelayCounters(world.relayDomain);
    return world;
  } catch (error) {
    if (world) await world.close();
    else await server.stop();
    throw error;
  }
}
