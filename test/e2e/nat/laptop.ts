// A laptop behind a home router, driven only by wgo the way its owner runs it: `wgo up --enrolment-key` once,
// then `wgo heartbeat --apply` as its service (systemd-units.mjs), which reports the peers' endpoints and
// follows every config change (a new candidate endpoint, a move onto or off a relay) as a delta. wgo runs
// inside the laptop's namespace, so its API requests leave through the NAT like everything else.
import { type ChildProcess, spawn } from "node:child_process";
import { OutputTail, run } from "../support/command.ts";
import { wgoMachine, type Wgo } from "../wgo/wgo-process.ts";
import { wgoArgv, wgoEnv } from "../gateway/agent-process.ts";
import type { Host } from "../support/netns.ts";
import type { Home } from "./nat-lab.ts";

/** Seconds between the follower's heartbeats: each carries the peers' endpoints and handshakes. */
export const HEARTBEAT_SECONDS = 2;

export class Laptop {
  nodeId = "";
  publicKey = "";
  /** The overlay address, without its prefix length. */
  overlay = "";
  /** How long its `wgo up` took (enrolment, config, wireguard-go, interface), for the time-to-reply logs. */
  upMs = 0;
  readonly wgo: Wgo;
  private follower: ChildProcess | undefined;
  private readonly log = new OutputTail();

  constructor(
    readonly name: string,
    readonly ifname: string,
    /** The machine: its home's laptop, or the neighbour beside it. */
    readonly host: Host,
    readonly home: Home,
    private readonly apiUrl: string,
    private readonly homeDir: string,
    private readonly enrolmentKey: string,
  ) {
    this.wgo = wgoMachine(apiUrl, homeDir, { netns: host.namespace });
  }

  /** `wgo up` in one command: enrol with the key, fetch the config, bring the interface up. */
  async up(): Promise<void> {
    const argv = ["up", "--enrolment-key", this.enrolmentKey, "--name", this.name, "--interface", this.ifname, "--method", "setconf"];
    const started = Date.now();
    const [result] = (await this.wgo(argv)).json;
    this.upMs = Date.now() - started;
    this.log.append(`${JSON.stringify(result)}\n`);
    this.nodeId = result.nodeId;
    this.publicKey = result.publicKey;
    this.overlay = String(result.address).split("/")[0]!;
  }

  /** Starts the device's service loop: heartbeats every HEARTBEAT_SECONDS, config changes applied. */
  follow(): void {
    const args = ["--api", this.apiUrl, "--home", this.homeDir, "--json", "heartbeat", "--name", this.name, "--apply"];
    const argv = ["ip", "netns", "exec", this.host.namespace, ...wgoArgv([...args, "--interval", String(HEARTBEAT_SECONDS)])];
    const child = spawn(argv[0]!, argv.slice(1), { env: wgoEnv, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (chunk) => this.log.append(chunk));
    child.stderr!.on("data", (chunk) => this.log.append(chunk));
    this.follower = child;
  }

  async stopFollowing(): Promise<void> {
    const child = this.follower;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }

  output = () => this.log.toString().slice(-1500);

  /** `wg show <if> dump` in the laptop (wgo's wireguard-go uses the real /run/wireguard, not the lab's). */
  async wgShow(): Promise<string> {
    if (!this.nodeId) return "(not up)";
    const shown = await run(["ip", "netns", "exec", this.host.namespace, "wg", "show", this.ifname, "dump"]);
    return `${shown.stdout}${shown.stderr}`;
  }

  /** The endpoint WireGuard holds for the peer with `publicKey` (`wg show endpoints`), or null. */
  async endpointOf(publicKey: string): Promise<string | null> {
    const endpoint = await this.peerField("endpoints", publicKey);
    return endpoint && endpoint !== "(none)" ? endpoint : null;
  }

  /** The UDP port wgo's interface listens on (a NAT that preserves ports shows it on the router's WAN side). */
  async listenPort(): Promise<number> {
    const shown = await run(["ip", "netns", "exec", this.host.namespace, "wg", "show", this.ifname, "listen-port"]);
    return Number(shown.stdout.trim());
  }

  /** The persistent keepalive WireGuard holds for the peer with `publicKey` (0 when off). */
  async keepaliveOf(publicKey: string): Promise<number> {
    const value = await this.peerField("persistent-keepalive", publicKey);
    return value && value !== "off" ? Number(value) : 0;
  }

  /** The AllowedIPs WireGuard holds for the peer with `publicKey`. */
  async allowedIpsOf(publicKey: string): Promise<string[]> {
    const value = (await this.peerField("allowed-ips", publicKey)) ?? "";
    return value.split(" ").filter((ip) => ip && ip !== "(none)");
  }

  /** One peer's value in `wg show <if> <field>` (lines of key, tab, value). */
  private async peerField(field: string, publicKey: string): Promise<string | undefined> {
    const shown = await run(["ip", "netns", "exec", this.host.namespace, "wg", "show", this.ifname, field]);
    return shown.stdout
      .split("\n")
      .find((line) => line.startsWith(`${publicKey}\t`))
      ?.split("\t")[1];
  }
}
