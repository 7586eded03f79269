// Bringing an enrolled device's interface up (for both forms of `wgo up`, see up.mjs) and `wgo down`:
// apply the device's wg-quick file to an interface, or remove it. Where it was applied (interface,
// namespace, method) is remembered so heartbeat, status and down need no repeats.
import { deviceName, interfaceName, netnsName, oneOf } from "../args.mjs";
import { describeDns, dnsSummary, removeDeviceDns, syncDeviceDns } from "../device-dns.mjs";
import { dropAccess, enforceAccess } from "../access-filter.mjs";
import { fetchConfig, heldConfig, loadDevice, saveDevice, storeConfig, storedConfigText } from "../device-state.mjs";
import { paths } from "../files.mjs";
import { applyConfig, chooseMethod, interfaceExists, METHODS, takeDown } from "../interface.mjs";
import { configuredListenPort, keptListenPort, keptPortInUse, withListenPort } from "../listen-port.mjs";
import { revisionInText } from "../wg-quick-text.mjs";

export const UP_USAGE = "wgo up --name NAME [--interface wg0] [--netns NS] [--method auto|wg-quick|setconf] [--service]";
const DOWN_USAGE = "wgo down --name NAME [--interface wg0] [--netns NS]";

/** @type {Record<string, import("../args.mjs").OptionSpec>} */
export const placement = {
  name: { type: "string", value: "NAME", help: "the enrolled device" },
  interface: { type: "string", value: "IF", help: "interface name (default: the last one used, else the wgN chosen at enrolment)" },
  netns: { type: "string", value: "NS", help: "apply inside this network namespace (ip netns exec NS …); wgo itself stays here" },
};

/** Flags win over what the device file remembers; `null` netns means the current namespace. */
export function placeDevice(ctx, values, usage) {
  // Flags are checked before any file is read: a typo is a usage error even for an unknown device.
  const name = deviceName(values.name, `usage: ${usage}`);
  if (values.interface !== undefined) interfaceName(values.interface, `usage: ${usage}`);
  netnsName(values.netns, `usage: ${usage}`);
  const device = loadDevice(ctx.home, name);
  const ifname = values.interface ?? device.interface ?? "wg0";
  const netns = values.netns ?? device.netns ?? undefined;
  return { device, ifname, netns, sys: ctx.createSystem({ netns, env: ctx.env }) };
}

/** Applies the text and records what is now running; shared by `up` and `heartbeat --apply`. */
export async function applyAndRecord(ctx, { device, ifname, netns, sys }, text, requestedMethod) {
  const exists = await interfaceExists(sys, ifname);
  // A running interface keeps the method that made it; auto only decides for a new one.
  const method = exists && device.method && requestedMethod === "auto" ? device.method : await chooseMethod(sys, requestedMethod);
  // A config that names no ListenPort gets the port this device keeps (cli/listen-port.mjs): a NAT mapping
  // the server learned for it must outlive a re-apply or a new `up`.
  const keep = configuredListenPort(text) === null;
  if (keep && !Number.isInteger(device.listenPort)) {
    device.listenPort = await keptListenPort({ sys, ifname, device });
    saveDevice(ctx.home, device);
  }
  const applied = keep ? withListenPort(text, device.listenPort) : text;
  let result;
  try {
    result = await applyConfig({ sys, ifname, text: applied, method, wgQuickPath: paths.wgQuick(ctx.home, ifname), env: ctx.env });
  } catch (error) {
    throw keep ? keptPortInUse(error, ctx.home, device) : error;
  }
  Object.assign(device, {
    interface: ifname,
    netns: netns ?? null,
    method,
    appliedRevision: revisionInText(text) ?? device.configRevision,
  });
  saveDevice(ctx.home, device);
  for (const line of result.plan.ignored) ctx.note(`not applied: ${line}`);
  // Policy mode: the inbound filter the config carries, on the interface just applied (docs/access.md).
  const held = heldConfig(ctx.home, device.name);
  if (held) {
    device.accessFilter = await enforceAccess(sys, ctx.home, ifname, held, device.accessFilter === true);
    saveDevice(ctx.home, device);
  }
  // After the interface is up: resolved needs the link to exist, and the servers are reached through it.
  const dns = await syncDeviceDns(ctx, { device, ifname, netns, sys }, { method, action: result.action, plan: result.plan });
  device.dns = dns.record;
  saveDevice(ctx.home, device);
  return { ...result, dns: dns.record, dnsChanged: dns.changed };
}

/**
 * `wgo up` for an enrolled device: applies its wg-quick file (fetched first if there is none, or when
 * `fresh` asks for the server's current one) and says what it did. Shared by both forms of `wgo up`.
 * @returns {Promise<{ human: string, data: object, place: ReturnType<typeof placeDevice> }>}
 */
export async function bringUp(ctx, values, { usage = UP_USAGE, fresh = false } = {}) {
  const method = oneOf("method", values.method ?? "auto", METHODS, `usage: ${usage}`);
  const place = placeDevice(ctx, values, usage);
  const stored = fresh ? null : storedConfigText(ctx.home, place.device.name);
  const text = stored ?? storeConfig(ctx.home, place.device, await fetchConfig(ctx, place.device));
  const result = await applyAndRecord(ctx, place, text, method);
  const where = place.netns ? ` in namespace ${place.netns}` : "";
  const human =
    `${place.ifname}${where} ${result.action === "created" ? "is up" : "re-applied"} (${result.method}) ` +
    `with revision ${place.device.appliedRevision}, address ${result.plan.addresses.join(", ")}` +
    (result.routes.length ? `, routes ${result.routes.join(", ")}` : "") +
    describeDns(result.dns);
  const data = {
    name: place.device.name,
    interface: place.ifname,
    netns: place.netns ?? null,
    method: result.method,
    action: result.action,
    appliedRevision: place.device.appliedRevision,
    addresses: result.plan.addresses,
    routes: result.routes,
    dns: dnsSummary(result.dns),
  };
  return { human, data, place };
}

/** @type {import("../args.mjs").Command} */
export const down = {
  name: "down",
  summary: "remove the device's interface (and stop its wireguard-go)",
  usage: DOWN_USAGE,
  options: placement,
  required: ["name"],
  async run(ctx, values) {
    const place = placeDevice(ctx, values, DOWN_USAGE);
    // Before the link goes: `resolvectl revert` needs it.
    const dnsRemoved = await removeDeviceDns(ctx, place.device);
    if (dnsRemoved) {
      place.device.dns = null;
      saveDevice(ctx.home, place.device);
    }
    const result = await takeDown({
      sys: place.sys,
      ifname: place.ifname,
      method: place.device.method ?? "setconf",
      wgQuickPath: paths.wgQuick(ctx.home, place.ifname),
    });
    await dropAccess(place.sys, ctx.home, place.ifname, place.device.accessFilter === true);
    if (place.device.accessFilter) {
      place.device.accessFilter = false;
      saveDevice(ctx.home, place.device);
    }
    const dns = dnsRemoved && dnsRemoved !== "none" ? ` (DNS removed, ${dnsRemoved})` : "";
    ctx.print(result.action === "absent" ? `${place.ifname} was not up${dns}` : `${place.ifname} removed${dns}`, {
      name: place.device.name,
      interface: place.ifname,
      netns: place.netns ?? null,
      action: result.action,
      dnsRemoved,
    });
  },
};
