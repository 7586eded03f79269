// `wgo heartbeat`: report the applied revision and per-peer counters from `wg show <if> dump`; with
// --apply, follow a configChanged answer by fetching what changed and applying it (follow-config.mjs),
// and between beats long-poll the config so a routing change is applied at once (heartbeat-loop.mjs).
import { deviceName, positiveInteger } from "../args.mjs";
import { loadDevice, saveDevice } from "../device-state.mjs";
import { interfaceExists } from "../interface.mjs";
import { readLocalEndpoints } from "../local-endpoints.mjs";
import { parseWgDump } from "../system.mjs";
import { followConfigChange } from "./follow-config.mjs";
import { heartbeatLoop } from "./heartbeat-loop.mjs";
import { describeSent, sendBeat } from "./heartbeat-report.mjs";
import { placeDevice } from "./link.mjs";

const USAGE = "wgo heartbeat --name NAME [--interface wg0] [--netns NS] [--interval 30] [--once] [--apply]";

/** One beat. Returns what the server answered and what was applied. */
async function beat(ctx, place, apply) {
  // Re-read every beat: `wgo config` or `wgo up` may have changed the file since the loop started.
  place.device = loadDevice(ctx.home, place.device.name);
  const device = place.device;
  const up = await interfaceExists(place.sys, place.ifname);
  if (!up) ctx.note(`${place.ifname} is not up: reporting no peers`);
  const dump = up ? parseWgDump(await place.sys.check(["wg", "show", place.ifname, "dump"])) : { listenPort: null, peers: [] };
  const appliedRevision = device.appliedRevision ?? 0; // 0: nothing applied yet (the schema needs a number)
  // Where a peer on this LAN reaches the socket (docs/nat.md); only known while the interface runs.
  const localEndpoints = up && dump.listenPort ? await readLocalEndpoints(place.sys, place.ifname, dump.listenPort) : undefined;
  const { ack, report: sent } = await sendBeat(ctx, device, appliedRevision, dump, { localEndpoints });
  device.lastHeartbeat = { at: new Date(ctx.now()).toISOString(), desiredRevision: ack.desiredRevision, configChanged: ack.configChanged };
  saveDevice(ctx.home, device);

  let applied = null;
  let fetched = [];
  if (ack.configChanged && apply) ({ applied, fetched } = await followConfigChange(ctx, place, up));
  const report = {
    name: device.name,
    interface: place.ifname,
    appliedRevision,
    desiredRevision: ack.desiredRevision,
    configChanged: ack.configChanged,
    peers: dump.peers.length,
    reported: sent,
    applied,
    ...(fetched.length ? { fetched } : {}),
  };
  const change = !ack.configChanged
    ? "in sync"
    : applied
      ? `config changed: applied revision ${applied.revision} (${describeApplied(applied, fetched)})`
      : apply
        ? "config changed: nothing applied"
        : "config changed: run with --apply, or `wgo config` + `wgo up`";
  ctx.print(
    `heartbeat ${device.name}: reported revision ${appliedRevision} and ${dump.peers.length} peers (${describeSent(sent)}); server wants ${ack.desiredRevision}: ${change}`,
    report,
  );
  return report;
}

function describeApplied(applied, fetched) {
  const bytes = fetched.map((answer) => `${answer.answer} ${answer.bytes} B`).join(", then ");
  const peers = applied.action === "delta" ? `, ${applied.peersUpserted} peers set, ${applied.peersRemoved} removed` : "";
  const dns = !("dns" in applied) ? "" : applied.dns ? `, DNS ${applied.dns.servers.join(", ")} via ${applied.dns.via}` : ", DNS removed";
  return `${applied.action}${peers}${dns}; received ${bytes}`;
}

/** @type {import("../args.mjs").Command} */
export const heartbeat = {
  name: "heartbeat",
  summary: "report liveness and peer counters; with --apply, re-apply a changed config",
  usage: USAGE,
  options: {
    name: { type: "string", value: "NAME", help: "the enrolled device" },
    interface: { type: "string", value: "IF", help: "interface to read (default: where `wgo up` put it)" },
    netns: { type: "string", value: "NS", help: "the interface's network namespace (default: where `wgo up` put it)" },
    interval: { type: "string", value: "SECONDS", help: "seconds between beats (default 30)" },
    once: { type: "boolean", help: "send one heartbeat and exit" },
    apply: { type: "boolean", help: "when the answer says configChanged, fetch what changed (a delta) and apply it" },
  },
  required: ["name"],
  async run(ctx, values) {
    deviceName(values.name, `usage: ${USAGE}`);
    const interval = positiveInteger("interval", values.interval ?? "30", `usage: ${USAGE}`);
    const place = placeDevice(ctx, values, USAGE);
    if (values.once) {
      await beat(ctx, place, values.apply);
      return;
    }
    await heartbeatLoop(ctx, place, { interval, apply: values.apply === true, beat: () => beat(ctx, place, values.apply) });
  },
};
