// `wgo enrol`: make a key pair here, register the public half, keep the device's credential.
import { existsSync } from "node:fs";
import { deviceName } from "../args.mjs";
import { saveDevice, storeConfig } from "../device-state.mjs";
import { OperationError, UsageError } from "../errors.mjs";
import { paths, removeFile, writeSecretFile } from "../files.mjs";
import { apiRequest } from "../http.mjs";
import { freeInterface } from "../device-names.mjs";
import { generateKeyPair } from "../keys.mjs";
import { loadSession, userRequest } from "../session.mjs";
import { VERSION } from "../version.mjs";

const USAGE = "wgo enrol --name NAME (--network NET_ID | --enrolment-key KEY)";

/** @type {import("../args.mjs").Command} */
export const enrol = {
  name: "enrol",
  summary: "enrol this machine as a device: key pair made here, only the public key is sent",
  usage: USAGE,
  options: {
    network: { type: "string", value: "NET_ID", help: "network to join (needed with the user session; implied by a key)" },
    name: { type: "string", value: "NAME", help: "device name, a DNS label (also its node and DNS name)" },
    "enrolment-key": { type: "string", value: "KEY", help: "headless enrolment with an ek_… key instead of the user session" },
  },
  required: ["name"],
  async run(ctx, values) {
    const name = deviceName(values.name, `usage: ${USAGE}`);
    const key = values["enrolment-key"];
    if (!values.network && !key) throw new UsageError("--network is required unless --enrolment-key is given", `usage: ${USAGE}`);
    const { device, publicKey } = await enrolDevice(ctx, { name, networkId: values.network, enrolmentKey: key });
    ctx.print(
      `enrolled "${name}" as ${device.deviceId} in ${device.networkId} with address ${device.address}\n` +
        `files: ${paths.device(ctx.home, name)}, ${paths.key(ctx.home, name)}, ${paths.config(ctx.home, name)} (revision ${device.configRevision})`,
      {
        name,
        deviceId: device.deviceId,
        networkId: device.networkId,
        nodeId: device.nodeId,
        address: device.address,
        publicKey,
        configRevision: device.configRevision,
      },
    );
  },
};

/**
 * Makes the key pair, registers the public half (with the user session, or headless with an enrolment
 * key) and keeps the device file, key and config. Shared by `wgo enrol` and `wgo up --network`.
 * @param {any} ctx
 * @param {{ name: string, nodeName?: string, networkId?: string, enrolmentKey?: string }} request
 *   `name` is the device's here (its files); `nodeName` the node's in the network, when it differs (device-names.mjs)
 * @returns {Promise<{ device: import("../device-state.mjs").Device, publicKey: string }>}
 */
export async function enrolDevice(ctx, { name, nodeName, networkId, enrolmentKey: key }) {
  // Never overwrite a key: the enrolled device would be locked out of its own tunnel.
  if (existsSync(paths.device(ctx.home, name)) || existsSync(paths.key(ctx.home, name))) {
    throw new OperationError(
      `a device named "${name}" is already enrolled in ${paths.devices(ctx.home)}; pick another name or remove its files`,
    );
  }
  const pair = generateKeyPair();
  writeSecretFile(paths.key(ctx.home, name), `${pair.privateKey}\n`);
  const body = /** @satisfies {import("../api-types.js").RequestBody<"/client/devices", "post">} */ ({
    name: nodeName ?? name,
    publicKey: pair.publicKey,
    platform: `${process.platform}-${process.arch}`,
    clientVersion: `wgo/${VERSION}`,
    ...(networkId ? { networkId } : {}),
    ...(key ? { enrolmentKey: key } : {}),
  });
  let answer;
  let api;
  try {
    if (key) {
      // With a key no user token is sent: the key alone decides the network (headless machines).
      api = ctx.api ?? loadSession(ctx.home)?.api ?? ctx.defaultApi;
      answer = await apiRequest({ api, path: "/client/devices", body });
    } else {
      api = ctx.api ?? loadSession(ctx.home)?.api;
      answer = await userRequest(ctx, { path: "/client/devices", body });
    }
  } catch (error) {
    removeFile(paths.key(ctx.home, name)); // not enrolled: the key belongs to nothing
    throw error;
  }
  const device = {
    name,
    ...(nodeName && nodeName !== name ? { nodeName } : {}),
    api,
    deviceId: answer.device.id,
    networkId: answer.device.networkId,
    nodeId: answer.device.nodeId,
    address: answer.config.interface.address,
    deviceToken: answer.deviceToken,
    // Its own interface: another network's device on this machine may already run wg0.
    interface: freeInterface(ctx.home),
    netns: null,
    method: null,
    configRevision: null,
    appliedRevision: null,
    lastHeartbeat: null,
  };
  saveDevice(ctx.home, device);
  storeConfig(ctx.home, device, answer.config);
  return { device, publicKey: pair.publicKey };
}
