// `wgo install-service`: runs this machine's wgo under systemd, so the tunnel comes back after a reboot
// and follows config changes: the device's `heartbeat --apply`, or with --gateway the gateway agent.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deviceName } from "../args.mjs";
import { listDevices, loadDevice } from "../device-state.mjs";
import { OperationError, UsageError } from "../errors.mjs";
import { writeSharedFile } from "../files.mjs";
import { DEFAULT_STATE_DIR } from "../gateway/state.mjs";
import { deviceUnit, gatewayUnit } from "../systemd-units.mjs";

const USAGE = "wgo install-service [--name NAME | --gateway [--state-dir DIR]] [--unit-dir /etc/systemd/system] [--no-enable]";
const WGO = fileURLToPath(new URL("../wgo.mjs", import.meta.url));

/** @type {import("../args.mjs").Command} */
export const installService = {
  name: "install-service",
  summary: "write a systemd unit for each device's `heartbeat --apply` (or --gateway: `gateway run`), then enable and start it",
  usage: USAGE,
  options: {
    name: { type: "string", value: "NAME", help: "the enrolled device (default: every device under --home, a unit each)" },
    gateway: { type: "boolean", help: "the gateway agent's unit (wgo-gateway.service) instead of a device's" },
    "state-dir": { type: "string", value: "DIR", help: `with --gateway: the agent's state directory (default ${DEFAULT_STATE_DIR})` },
    "unit-dir": { type: "string", value: "DIR", help: "where the unit file goes (env WGO_UNIT_DIR; default /etc/systemd/system)" },
    "no-enable": { type: "boolean", help: "only write the unit: no `systemctl daemon-reload` / `enable --now`" },
  },
  async run(ctx, values) {
    if (!values.gateway && values["state-dir"] !== undefined)
      throw new UsageError("--state-dir goes with --gateway; a device's state is --home", `usage: ${USAGE}`);
    // A machine in several networks has a device (and a unit) for each: without --name, every one of them.
    const units = values.gateway
      ? [gatewayService(ctx, values)]
      : (values.name === undefined ? everyDevice(ctx.home) : [deviceName(values.name, `usage: ${USAGE}`)]).map((name) =>
          deviceService(ctx, name),
        );
    for (const unit of units)
      await installUnit(ctx, unit, { unitDir: values["unit-dir"] ?? ctx.env.WGO_UNIT_DIR, enable: !values["no-enable"] });
  },
};

/**
 * Writes the unit, then (with `enable`) `systemctl daemon-reload` and `enable --now`; prints what it did.
 * Shared with `wgo up --service`. @returns {Promise<{ unit: string, path: string, enabled: boolean }>}
 */
export async function installUnit(ctx, unit, { unitDir, enable: enabled }) {
  const path = resolve(unitDir ?? "/etc/systemd/system", unit.file);
  writeSharedFile(path, unit.text); // 0644: systemd reads units as any user; no secret is in it
  if (enabled) await enable(ctx, unit, path);
  ctx.print(
    enabled ? `wrote ${path}; enabled and started ${unit.file} (\`systemctl status ${unit.file}\`)` : `wrote ${path} (not enabled)`,
    { unit: unit.file, path, execStart: unit.execStart, enabled },
  );
  return { unit: unit.file, path, enabled };
}

/** The unit of device `name` of this home: `up` at start, then `heartbeat --apply`. */
export function deviceService(ctx, name) {
  loadDevice(ctx.home, name); // a unit for a device that is not there would fail at every start
  const node = process.execPath;
  return {
    file: `wgo-device-${name}.service`,
    text: deviceUnit({ node, wgo: WGO, home: resolve(ctx.home), name }),
    execStart: [node, WGO, "heartbeat", "--name", name, "--apply"],
  };
}

function gatewayService(ctx, values) {
  if (values.name !== undefined)
    throw new UsageError("--name is a device's; the gateway agent runs every node it is given", `usage: ${USAGE}`);
  const stateDir = resolve(values["state-dir"] ?? ctx.env.WGO_GATEWAY_STATE ?? DEFAULT_STATE_DIR);
  const node = process.execPath;
  return { file: "wgo-gateway.service", text: gatewayUnit({ node, wgo: WGO, stateDir }), execStart: [node, WGO, "gateway", "run"] };
}

function everyDevice(home) {
  const names = listDevices(home);
  if (names.length === 0) throw new OperationError(`no device enrolled under ${home}: run \`wgo up --network …\` first (or give --home)`);
  return names;
}

async function enable(ctx, unit, path) {
  const sys = ctx.createSystem({ env: ctx.env });
  try {
    await sys.check(["systemctl", "daemon-reload"]);
  } catch (error) {
    if (!(error instanceof OperationError) || error.code !== "missing_tool") throw error;
    throw new OperationError(
      `systemctl is not on PATH: this machine does not run systemd. ${path} is written; start \`${unit.execStart.join(" ")}\` with this machine's service manager instead (or use --no-enable)`,
      { code: "no_systemd" },
    );
  }
  await sys.check(["systemctl", "enable", "--now", unit.file]);
}
