// One enrolled device on this machine: <home>/devices/<name>.json (ids, its dvc_ credential, where and
// how it is applied, which revisions it holds), <name>.key (the private key), <name>.conf (the
// wg-quick file with the key filled in) and <name>.nodeconfig (the server's NodeConfig it came from). Device calls use the device's own credential, never the user's.
import { readdirSync } from "node:fs";
import { ApiError, OperationError } from "./errors.mjs";
import { paths, readJson, readText, writeSecretFile, writeSecretJson } from "./files.mjs";
import { apiExchange, apiRequest } from "./http.mjs";
import { fillPrivateKey, wgQuickFile } from "./wg-quick-text.mjs";

/**
 * @typedef {{ name: string, api: string, deviceId: string, networkId: string, nodeId: string, address: string,
 *   deviceToken: string, interface: string, netns: string | null, method: string | null,
 *   configRevision: number | null, appliedRevision: number | null,
 *   lastHeartbeat: { at: string, desiredRevision: number, configChanged: boolean } | null,
 *   dns?: import("./resolver.mjs").DnsRecord | null, networkName?: string | null,
 *   accessFilter?: boolean, listenPort?: number, nodeName?: string }} Device
 * `listenPort`: the UDP port wgo picked for a config that names none, kept for every apply (cli/listen-port.mjs).
 * `nodeName`: the node's name in its network when it is not `name` (a second network's device: cli/device-names.mjs).
 */

/** @returns {Device} */
export function loadDevice(home, name) {
  const device = readJson(paths.device(home, name));
  if (!device) throw new OperationError(`no device "${name}" in ${paths.devices(home)}: run \`wgo enrol --name ${name}\` first`);
  return device;
}

/** @param {Device} device */
export function saveDevice(home, device) {
  writeSecretJson(paths.device(home, device.name), device);
}

/** Names of the devices enrolled under this home, sorted. */
export function listDevices(home) {
  try {
    return readdirSync(paths.devices(home))
      .filter((file) => file.endsWith(".json"))
      .map((file) => file.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

export function readPrivateKey(home, name) {
  const key = readText(paths.key(home, name));
  if (key === null) throw new OperationError(`the private key ${paths.key(home, name)} is missing; the device cannot be used without it`);
  return key.trim();
}

/** A device call with the device credential (dvc_…); a 401 here means the device was deleted or revoked. */
export function deviceRequest(ctx, device, request) {
  return apiRequest({ ...request, api: ctx.api ?? device.api, token: device.deviceToken });
}

/** POST /client/devices/:id/config: the current NodeConfig, which carries the desired revision. */
export async function fetchConfig(ctx, device) {
  const answer = await deviceRequest(ctx, device, { path: `/client/devices/${encodeURIComponent(device.deviceId)}/config` });
  return answer.config;
}

/**
 * POST …/config with `{ sinceRevision }` when given: the server answers `{ delta }` (what changed since
 * that revision) or `{ config }` (the full config, also when it cannot make a delta from there).
 * @returns {Promise<{ config?: any, delta?: any, bytes: number }>}
 */
export async function fetchConfigOrDelta(ctx, device, sinceRevision) {
  const { body, bytes } = await apiExchange({
    api: ctx.api ?? device.api,
    token: device.deviceToken,
    path: `/client/devices/${encodeURIComponent(device.deviceId)}/config`,
    body:
      sinceRevision === undefined
        ? undefined
        : /** @satisfies {import("./api-types.js").RequestBody<"/client/devices/{id}/config", "post">} */ ({ sinceRevision }),
  });
  if (!body?.config && !body?.delta)
    throw new ApiError(200, { code: "bad_response", message: "the config answer has neither config nor delta" });
  return { config: body.config, delta: body.delta, bytes };
}

/**
 * Writes the managed wg-quick file (and `out`, if given) with the private key filled in, keeps the
 * NodeConfig for the next delta, and remembers the revision it holds. @returns {string} the filled text
 */
export function storeConfig(home, device, config, out) {
  const text = fillPrivateKey(config.wgQuick, readPrivateKey(home, device.name));
  writeSecretFile(paths.config(home, device.name), text);
  if (out) writeSecretFile(out, wgQuickFile(text)); // for wg-quick as it is: no empty AllowedIPs line
  writeSecretFile(paths.heldConfig(home, device.name), JSON.stringify(config)); // compact: a big network makes megabytes
  device.configRevision = config.routingRevision;
  device.address = config.interface.address;
  saveDevice(home, device);
  return text;
}

/** The NodeConfig stored with the managed file; null when there is none (or it cannot be read). */
export function heldConfig(home, name) {
  try {
    return readJson(paths.heldConfig(home, name));
  } catch {
    return null; // only an optimisation: without it the full config is fetched
  }
}

/** The managed file's text, for `up`; null when `wgo config` has not written one yet. */
export function storedConfigText(home, name) {
  return readText(paths.config(home, name));
}
