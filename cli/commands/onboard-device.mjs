// Which device of this home `wgo up --network` works with: the one named, one already in that network, or a
// new one named after this host. A machine may be in several networks, one device each (cli/device-names.mjs):
// a host name already taken by a device of another network makes the new one `<host>-<network>` here, while its
// node is still called `<host>` in its network. A device is never enrolled twice into the same network, nor is
// a device moved: either would replace a key something depends on.
import { UsageError, OperationError } from "../errors.mjs";
import { listDevices, loadDevice, saveDevice } from "../device-state.mjs";
import { hostLabel, secondName } from "../device-names.mjs";
import { paths, readJson } from "../files.mjs";
import { chooseNetwork } from "../network-choice.mjs";
import { loadSession } from "../session.mjs";
import { allNetworks } from "./networks.mjs";

/**
 * @returns {Promise<{ name: string, nodeName?: string }>} the device's local name, and the node's name when it differs
 */
export async function onboardingDevice(ctx, values, usage) {
  if (values.name) return { name: values.name };
  const reused = reusableDevice(ctx, values.network, usage);
  if (reused) return { name: reused };
  const host = hostLabel();
  if (!host) throw new UsageError("this host's name makes no device name: give --name NAME", usage);
  const taken = readJson(paths.device(ctx.home, host));
  // Free, or that very device (checked again, and refused if it is elsewhere, by checkSameNetwork).
  if (!taken || !values.network) return { name: host };
  const api = ctx.api ?? taken.api;
  if ((await inNetwork({ ...ctx, api }, taken, values.network)) !== false) return { name: host };
  const name = secondName(host, values.network);
  if (!name || name === host) throw new UsageError(`"${host}" is taken by another network's device: give --name NAME`, usage);
  return { name, nodeName: host };
}

/** Without --name, a device of this home already in that network (by id or the name it was joined by). */
function reusableDevice(ctx, network, usage) {
  if (!network) return null;
  const matches = listDevices(ctx.home)
    .map((name) => loadDevice(ctx.home, name))
    .filter((device) => (!ctx.api || device.api === ctx.api) && (device.networkId === network || device.networkName === network));
  if (matches.length > 1) {
    throw new UsageError(`devices ${matches.map((d) => `"${d.name}"`).join(", ")} are all in ${network}: say which with --name`, usage);
  }
  return matches[0]?.name ?? null;
}

/**
 * Whether `device` is in the network `wanted` names (an id or a name) at ctx.api: true, false, or null when
 * nothing here can tell (a name, no session, a device joined by id). A name is looked up with a session.
 */
async function inNetwork(ctx, device, wanted) {
  if (device.api !== ctx.api) return false;
  if (!wanted || wanted === device.networkId || wanted === device.networkName) return true;
  const session = loadSession(ctx.home);
  if (session?.api === ctx.api && !wanted.startsWith("net_")) {
    const network = chooseNetwork(await allNetworks(ctx), wanted);
    if (network.id !== device.networkId) return false;
    device.networkName = network.name;
    saveDevice(ctx.home, device);
    return true;
  }
  if (wanted.startsWith("net_") || device.networkName) return false;
  return null;
}

/**
 * A device of this name is enrolled already: reuse it when it is in the network asked for, at the same
 * API; otherwise refuse, since enrolling again would replace the key the existing device depends on.
 */
export async function checkSameNetwork(ctx, device, wanted) {
  if ((await inNetwork(ctx, device, wanted)) === true) return;
  const label = `${device.networkName ? `${device.networkName} (${device.networkId})` : device.networkId}`;
  const move = `give another --name (or none: wgo names this machine's device there after the host and the network) to enrol it there too, or \`wgo down --name ${device.name}\` and remove ${paths.devices(ctx.home)}/${device.name}.* to move it`;
  const where = device.api !== ctx.api ? `with ${device.api}, not ${ctx.api}` : `in network ${label}, not "${wanted}"`;
  throw new OperationError(`device "${device.name}" is enrolled ${where}: ${move}`, { code: "enrolled_elsewhere" });
}
