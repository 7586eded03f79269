// The flows an access-policy e2e tries: real TCP listeners inside a namespace, connection attempts from
// another with a short timeout, and the nftables counters wgo's filters keep (cli/access-filter.mjs).
import { type ChildProcess, spawn } from "node:child_process";
import { check, run } from "../support/command.ts";

/** How an attempt ended: connected, no answer at all (a filter dropped it), or refused/unreachable (an error code). */
export type Outcome = "open" | "timeout" | string;

export interface Listeners {
  stop(): Promise<void>;
}

const SERVER = `
const net = require("node:net");
const ports = JSON.parse(process.argv[1]);
let up = 0;
for (const port of ports)
  // A client that got its answer resets the connection: that is no reason for the listener to die.
  net.createServer((socket) => socket.on("error", () => {}).end("ok\\n")).listen(port, "0.0.0.0", () => { if (++up === ports.length) console.log("listening"); });
`;

/** A TCP server on each of `ports` inside `namespace` (answers "ok" and closes); resolves once all listen. */
export async function startListeners(namespace: string, ports: number[]): Promise<Listeners> {
  const child: ChildProcess = spawn("ip", ["netns", "exec", namespace, process.execPath, "-e", SERVER, JSON.stringify(ports)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("listening")) resolve();
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`listeners in ${namespace} exited ${code}: ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

const CLIENT = `
const net = require("node:net");
const [host, port, ms] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const socket = net.connect({ host, port });
const done = (outcome) => { console.log(outcome); socket.destroy(); process.exit(0); };
const timer = setTimeout(() => done("timeout"), ms);
socket.once("connect", () => { clearTimeout(timer); done("open"); });
socket.once("error", (error) => { clearTimeout(timer); done(error.code ?? "error"); });
`;

/**
 * One TCP connection attempt from `namespace`. 2 s by default: inside one machine a SYN and its answer take
 * well under 10 ms, so a flow that is allowed and whose tunnel is up answers with a margin of over 100x.
 */
export async function tcpAttempt(namespace: string, host: string, port: number, timeoutMs = 2000): Promise<Outcome> {
  const out = await check(["ip", "netns", "exec", namespace, process.execPath, "-e", CLIENT, host, String(port), String(timeoutMs)]);
  return out.trim();
}

/** Attempts until one connects or `timeoutMs` passes (a first packet may wait for a WireGuard handshake). */
export async function tcpOpens(namespace: string, host: string, port: number, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) if ((await tcpAttempt(namespace, host, port)) === "open") return true;
  return false;
}

/**
 * Packets counted per `<chain>:<comment>` in a wgo access table (`nft list table inet <table>` in `namespace`):
 * "forward:rules.2" is what rule 2 dropped or accepted, "forward:no rule allows it" the default drop.
 */
export async function filterCounters(namespace: string, table: string): Promise<Map<string, number>> {
  const listed = await run(["ip", "netns", "exec", namespace, "nft", "list", "table", "inet", table]);
  if (listed.code !== 0) throw new Error(`nft list table inet ${table} in ${namespace}: ${listed.stderr}`);
  const counters = new Map<string, number>();
  let chain = "";
  for (const line of listed.stdout.split("\n")) {
    const opened = line.match(/^\s*chain (\S+) \{/);
    if (opened) chain = opened[1]!;
    const counted = line.match(/counter packets (\d+) bytes \d+ .*comment "([^"]+)"/);
    if (counted) {
      const key = `${chain}:${counted[2]}`;
      counters.set(key, (counters.get(key) ?? 0) + Number(counted[1]));
    }
  }
  return counters;
}

/** For failure messages: a namespace's WireGuard interfaces and nftables ruleset (wgo's daemons use the real /run/wireguard). */
export async function describeFilters(namespaces: string[]): Promise<string> {
  const parts: string[] = [];
  for (const namespace of namespaces) {
    const wg = await run(["ip", "netns", "exec", namespace, "wg", "show", "all"]);
    const nft = await run(["ip", "netns", "exec", namespace, "nft", "list", "ruleset"]);
    parts.push(`## ${namespace}\n${wg.stdout}${wg.stderr}\n${nft.stdout}${nft.stderr}`);
  }
  return parts.join("\n");
}
