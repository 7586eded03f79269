// `wgo gateway enrol | run | status`: the gateway daemon. An inventory gateway's agent enrols once with a
// single-use token, then runs every gateway node the server assigns to that gateway (docs/agents.md).
import { hostname } from "node:os";
import { netnsName, positiveInteger } from "../args.mjs";
import { OperationError, UsageError } from "../errors.mjs";
import { interfaceExists } from "../interface.mjs";
import { heartbeatPeers, parseWgDump } from "../system.mjs";
import { enrolAgent } from "../gateway/agent-api.mjs";
import { zoneServerRunning } from "../gateway/dns-server.mjs";
import { runGateway } from "../gateway/run-loop.mjs";
import { DEFAULT_STATE_DIR, heldNodeIds, loadAgent, loadNode, loadStatus, saveAgent, statePaths } from "../gateway/state.mjs";

/** @type {import("../args.mjs").OptionSpec} */
const stateDir = {
  type: "string",
  value: "DIR",
  help: `the agent's state directory (env WGO_GATEWAY_STATE; default ${DEFAULT_STATE_DIR})`,
};
const dirOf = (ctx, values) => values["state-dir"] ?? ctx.env.WGO_GATEWAY_STATE ?? DEFAULT_STATE_DIR;

const ENROL_USAGE = "wgo gateway enrol --api URL --token aet_… [--name NAME] [--state-dir DIR]";
/** @type {import("../args.mjs").Command} */
export const gatewayEnrol = {
  name: "gateway enrol",
  summary: "trade a gateway-daemon enrolment token for the agent credential (stored 0600 in the state directory)",
  usage: ENROL_USAGE,
  options: {
    token: { type: "string", value: "TOKEN", help: "the single-use enrolment token (aet_…) from POST /agents/enrolment-tokens" },
    name: { type: "string", value: "NAME", help: "the agent's name in the inventory (default: this host's name)" },
    "state-dir": stateDir,
  },
  required: ["token"],
  async run(ctx, values) {
    if (!ctx.api) throw new UsageError("--api (or WGO_API) is required: the control plane's URL", `usage: ${ENROL_USAGE}`);
    const dir = dirOf(ctx, values);
    const answer = await enrolAgent(ctx.api, values.token, values.name ?? hostname());
    if (answer.agent.kind !== "gateway-daemon" || !answer.agent.gatewayId) {
      throw new OperationError(`the token enrolled a ${answer.agent.kind} agent; \`wgo gateway\` needs a gateway-daemon token`);
    }
    saveAgent(dir, {
      api: ctx.api,
      agentId: answer.agent.id,
      gatewayId: answer.agent.gatewayId,
      name: answer.agent.name,
      credential: answer.credential,
    });
    ctx.print(`enrolled agent ${answer.agent.id} for gateway ${answer.agent.gatewayId}; credential in ${statePaths.agent(dir)}`, {
      agentId: answer.agent.id,
      gatewayId: answer.agent.gatewayId,
      stateDir: dir,
    });
  },
};

const RUN_USAGE = "wgo gateway run [--state-dir DIR] [--netns NS] [--once] [--report-interval S]";
/** @type {import("../args.mjs").Command} */
export const gatewayRun = {
  name: "gateway run",
  summary: "run this gateway's nodes: poll desired state, apply WireGuard, routes and DNS, report (until stopped)",
  usage: RUN_USAGE,
  options: {
    "state-dir": stateDir,
    netns: { type: "string", value: "NS", help: "set the nodes up inside this network namespace; wgo itself stays here" },
    once: { type: "boolean", help: "one poll, apply and report, then exit" },
    "report-interval": {
      type: "string",
      value: "S",
      help: "seconds between reports (liveness, counters, probes) while no change comes (default 3)",
    },
  },
  async run(ctx, values) {
    const netns = netnsName(values.netns, `usage: ${RUN_USAGE}`) ?? null;
    const reportIntervalMs =
      values["report-interval"] === undefined
        ? undefined
        : positiveInteger("report-interval", values["report-interval"], `usage: ${RUN_USAGE}`) * 1000;
    const dir = dirOf(ctx, values);
    const agent = loadAgent(dir);
    if (ctx.api) agent.api = ctx.api;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    ctx.signals.on("SIGTERM", onSignal);
    ctx.signals.on("SIGINT", onSignal);
    try {
      const log = (line) => ctx.stderr.write(`${new Date(ctx.now()).toISOString()} ${line}\n`);
      const result = await runGateway({
        dir,
        agent,
        netns,
        env: ctx.env,
        createSystem: ctx.createSystem,
        once: Boolean(values.once),
        reportIntervalMs,
        log,
        signal: stop.signal,
        now: ctx.now,
      });
      ctx.print(`stopped after ${result.polls} polls`, { ...result, stopped: stop.signal.aborted });
    } finally {
      ctx.signals.off("SIGTERM", onSignal);
      ctx.signals.off("SIGINT", onSignal);
    }
  },
};

const STATUS_USAGE = "wgo gateway status [--state-dir DIR]";
/** @type {import("../args.mjs").Command} */
export const gatewayStatus = {
  name: "gateway status",
  summary: "each node this gateway runs: desired versus applied revisions, DNS server, peers and handshake ages",
  usage: STATUS_USAGE,
  options: { "state-dir": stateDir },
  async run(ctx, values) {
    const dir = dirOf(ctx, values);
    const agent = loadAgent(dir);
    const poll = loadStatus(dir);
    const nodes = [];
    for (const nodeId of heldNodeIds(dir)) nodes.push(await nodeStatus(ctx, dir, nodeId, poll?.desired?.[nodeId] ?? null));
    const status = { agentId: agent.agentId, gatewayId: agent.gatewayId, lastPoll: poll?.at ?? null, apiError: poll?.error ?? null, nodes };
    ctx.print(describe(status), status);
  },
};

async function nodeStatus(ctx, dir, nodeId, desired) {
  const record = loadNode(dir, nodeId);
  const sys = ctx.createSystem({ netns: record?.netns ?? undefined, env: ctx.env });
  const up = record ? await interfaceExists(sys, record.ifname) : false;
  const peers = up ? heartbeatPeers(parseWgDump(await sys.check(["wg", "show", record.ifname, "dump"]))) : [];
  const now = ctx.now();
  return {
    nodeId,
    interface: record?.ifname ?? null,
    netns: record?.netns ?? null,
    up,
    desired,
    applied: { routing: record?.appliedRouting ?? null, dns: record?.appliedDns ?? null },
    inSync: Boolean(desired && up && desired.routing === record?.appliedRouting && desired.dns === record?.appliedDns),
    dnsServer: record?.dns
      ? { kind: record.dns.server, domain: record.dns.domain, running: zoneServerRunning(statePaths.dns(dir, nodeId)) }
      : null,
    error: record?.error ?? null,
    peers: peers.map((peer) => ({
      ...peer,
      handshakeAgeSeconds: peer.lastHandshakeAt ? Math.round((now - Date.parse(peer.lastHandshakeAt)) / 1000) : null,
    })),
  };
}

function describe(status) {
  const lines = [
    `agent ${status.agentId} for gateway ${status.gatewayId}; last poll ${status.lastPoll ?? "never"}${status.apiError ? ` (API unreachable: ${status.apiError})` : ""}`,
  ];
  if (status.nodes.length === 0) lines.push("  no nodes yet: create a gateway node with this gatewayId");
  for (const node of status.nodes) {
    const desired = node.desired ? `${node.desired.routing}/${node.desired.dns}` : "unknown";
    lines.push(
      `  ${node.nodeId} on ${node.interface}${node.netns ? ` in namespace ${node.netns}` : ""}: ${node.up ? "up" : "down"}, ` +
        `routing/DNS desired ${desired}, applied ${node.applied.routing ?? "-"}/${node.applied.dns ?? "-"}${node.inSync ? " (in sync)" : ""}`,
    );
    if (node.dnsServer)
      lines.push(`    DNS: ${node.dnsServer.kind} for ${node.dnsServer.domain}, ${node.dnsServer.running ? "running" : "NOT running"}`);
    if (node.error) lines.push(`    error: ${node.error}`);
    for (const peer of node.peers) {
      const age = peer.handshakeAgeSeconds === null ? "never" : `${peer.handshakeAgeSeconds} s ago`;
      // The endpoint a gateway holds for a peer behind NAT is its address after the NAT (docs/nat.md).
      const endpoint = peer.endpoint ? `endpoint ${peer.endpoint}, ` : "";
      lines.push(`    peer ${peer.publicKey}: ${endpoint}handshake ${age}, rx ${peer.rxBytes} B, tx ${peer.txBytes} B`);
    }
  }
  return lines.join("\n");
}
