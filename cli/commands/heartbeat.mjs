// `wgo heartbeat`: report the applied revision and per-peer counters from `wg show <if> dump`; with
// --apply, follow a configChanged answer by fetching what changed and applying it (follow-config.mjs),
// and between beats long-poll the config so a routing change is applied at once.
import { deviceName, positiveInteger } from "../args.mjs";
import { heldConfig, loadDevice, saveDevice } from "../device-state.mjs";
import { ApiError, CredentialRefusedError } from "../errors.mjs";
import { apiExchange } from "../http.mjs";
import { interfaceExists } from "../interface.mjs";
import { readLocalEndpoints } from "../local-endpoints.mjs";
import { parseWgDump } from "../system.mjs";
import { followConfigChange } from "./follow-config.mjs";
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

/**
 * Holds `POST …/config?wait=` with the revision the device holds, up to `seconds` (the server allows 60).
 * True when the revision moved (beat and apply now); false when nothing changed, nothing is held, or the
 * poll failed (the next beat reports and retries as before).
 */
async function untilConfigChanges(ctx, place, seconds, signal) {
  const held = heldConfig(ctx.home, place.device.name);
  if (!held) return false;
  try {
    const { body } = await apiExchange({
      api: ctx.api ?? place.device.api,
      token: place.device.deviceToken,
      path: `/client/devices/${encodeURIComponent(place.device.deviceId)}/config?wait=${Math.min(seconds, 60)}`,
      body: /** @satisfies {import("../api-types.js").RequestBody<"/client/devices/{id}/config", "post">} */ ({
        sinceRevision: held.routingRevision,
      }),
      timeoutMs: (Math.min(seconds, 60) + 15) * 1000,
      signal,
    });
    const revision = body?.delta?.routingRevision ?? body?.config?.routingRevision;
    return typeof revision === "number" && revision !== held.routingRevision;
  } catch (error) {
    if (isFatal(error)) throw error;
    return false;
  }
}

/** A device that was deleted or lost its rights will not come back by retrying. */
const isFatal = (error) => error instanceof ApiError && [401, 403, 404].includes(error.status);

/** The loop's end on a refused credential: exit 3, which the systemd unit does not restart on. */
const refused = (error) =>
  new CredentialRefusedError(
    `the API refused the device credential (${error.status} ${error.code}: ${error.message}): the device was deleted or revoked; enrol this machine again`,
  );

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
    let stopping = false;
    let wake = () => {};
    const stop = () => {
      stopping = true;
      wake();
    };
    ctx.signals.on("SIGINT", stop);
    ctx.signals.on("SIGTERM", stop);
    try {
      // A change the long poll saw but the beat could not apply: sleep this round rather than poll again
      // (the held revision is still old, so the poll would answer at once, again and again).
      let changeSeen = false;
      while (!stopping) {
        let again = false;
        let stuck = false;
        try {
          // After an apply, beat again at once so the server learns the new revision without waiting.
          again = (await beat(ctx, place, values.apply)).applied !== null;
          stuck = changeSeen && !again;
        } catch (error) {
          if (isFatal(error)) throw refused(error);
          ctx.reportError(error); // a network blip or a 5xx: keep beating
        }
        if (!stopping && !again) {
          const waited = new AbortController();
          const sleep = new Promise((resolve) => {
            const timer = setTimeout(resolve, interval * 1000);
            wake = () => {
              clearTimeout(timer);
              waited.abort();
              resolve(undefined);
            };
          });
          // With --apply, the time between beats is a long poll: a routing change (a gateway failover)
          // is applied within a second instead of at the next beat.
          changeSeen = values.apply && !stuck ? await untilConfigChanges(ctx, place, interval, waited.signal) : false;
          again = changeSeen;
          if (!again) await sleep;
        }
      }
    } finally {
      ctx.signals.off("SIGINT", stop);
      ctx.signals.off("SIGTERM", stop);
    }
  },
};
