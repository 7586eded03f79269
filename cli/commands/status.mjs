// `wgo status`: for each device, the revision it runs against the one the server wants (read with
// POST …/config, which records nothing, unlike a heartbeat), the interface as `wg show` sees it, and the
// server's view of the path to each peer (direct, or through which relay: cli/node-paths.mjs).
import { deviceName } from "../args.mjs";
import { fetchConfig, listDevices, loadDevice } from "../device-state.mjs";
import { NetworkError, OperationError } from "../errors.mjs";
import { interfaceExists } from "../interface.mjs";
import { describePaths, fetchPaths } from "../node-paths.mjs";
import { heartbeatPeers, parseWgDump } from "../system.mjs";

const USAGE = "wgo status [--name NAME]";

async function deviceStatus(ctx, name) {
  const device = loadDevice(ctx.home, name);
  const desiredRevision = await desiredRevisionOf(ctx, device);
  const ifname = device.interface ?? "wg0";
  const sys = ctx.createSystem({ netns: device.netns ?? undefined, env: ctx.env });
  const up = await interfaceExists(sys, ifname);
  const dump = up ? parseWgDump(await sys.check(["wg", "show", ifname, "dump"])) : { listenPort: null, peers: [] };
  const peers = heartbeatPeers(dump);
  return {
    name,
    deviceId: device.deviceId,
    networkId: device.networkId,
    networkName: device.networkName ?? null,
    address: device.address,
    appliedRevision: device.appliedRevision,
    configRevision: device.configRevision,
    desiredRevision,
    inSync: up && device.appliedRevision === desiredRevision,
    // The UDP port peers and NATs know this device by (kept across `up`s: cli/listen-port.mjs).
    interface: { name: ifname, netns: device.netns ?? null, method: device.method, up, listenPort: dump.listenPort, peers },
    paths: await fetchPaths(ctx, device),
  };
}

/** Asked of the server; when it cannot be reached, the last heartbeat's answer is the best we know. */
async function desiredRevisionOf(ctx, device) {
  try {
    return (await fetchConfig(ctx, device)).routingRevision;
  } catch (error) {
    if (!(error instanceof NetworkError) || !device.lastHeartbeat) throw error;
    ctx.note(`${error.url} is unreachable (${error.message}): desired revision from the heartbeat of ${device.lastHeartbeat.at}`);
    return device.lastHeartbeat.desiredRevision;
  }
}

function describeStatus(status, now) {
  const where = status.interface.netns ? ` in namespace ${status.interface.netns}` : "";
  const revision = !status.interface.up
    ? "not applied (interface down)"
    : status.inSync
      ? "in sync"
      : `behind: run \`wgo config --name ${status.name}\` and \`wgo up --name ${status.name}\``;
  const lines = [
    `${status.name} (${status.deviceId}) in ${status.networkName ? `${status.networkName} (${status.networkId})` : status.networkId}, address ${status.address}`,
    `  revision: applied ${status.appliedRevision ?? "none"}, file ${status.configRevision ?? "none"}, server ${status.desiredRevision}: ${revision}`,
    `  interface ${status.interface.name}${where}: ${status.interface.up ? `up (${status.interface.method ?? "unknown method"})` : "down"}` +
      (status.interface.listenPort ? `, UDP port ${status.interface.listenPort}` : ""),
  ];
  for (const peer of status.interface.peers) {
    const endpoint = peer.endpoint ? `endpoint ${peer.endpoint}, ` : "";
    lines.push(
      `    peer ${peer.publicKey}: ${endpoint}handshake ${peer.lastHandshakeAt ?? "never"}, rx ${peer.rxBytes} B, tx ${peer.txBytes} B`,
    );
  }
  lines.push(...describePaths(status.paths, now));
  return lines.join("\n");
}

/** @type {import("../args.mjs").Command} */
export const status = {
  name: "status",
  summary: "applied versus desired revision, and the interface's peers (all devices without --name)",
  usage: USAGE,
  options: { name: { type: "string", value: "NAME", help: "one device (default: every device under --home)" } },
  async run(ctx, values) {
    const names = values.name ? [deviceName(values.name, `usage: ${USAGE}`)] : listDevices(ctx.home);
    if (names.length === 0) throw new OperationError(`no devices enrolled under ${ctx.home}: run \`wgo enrol\` first`);
    for (const name of names) {
      const result = await deviceStatus(ctx, name);
      ctx.print(describeStatus(result, ctx.now()), result);
    }
  },
};
