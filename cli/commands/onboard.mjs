// `wgo up --network NAME_OR_ID`: a new machine's whole onboarding in one command, like `tailscale up`.
// Signs in when it has to, picks the network by id or name, enrols once (a machine already enrolled
// there reuses its device), fetches the config and brings the interface up, with the same code as the
// separate commands (login, networks, enrol, config, up).
import { hostname } from "node:os";
import { deviceName, interfaceName, netnsName, oneOf, positiveInteger } from "../args.mjs";
import { listDevices, loadDevice, readPrivateKey, saveDevice } from "../device-state.mjs";
import { ApiError, OperationError, UsageError } from "../errors.mjs";
import { paths, readJson } from "../files.mjs";
import { waitForHandshake } from "../handshake-wait.mjs";
import { METHODS } from "../interface.mjs";
import { publicKeyOf } from "../keys.mjs";
import { chooseNetwork } from "../network-choice.mjs";
import { loadSession } from "../session.mjs";
import { readPassword, signIn } from "../sign-in.mjs";
import { enrolDevice } from "./enrol.mjs";
import { bringUp } from "./link.mjs";
import { reportOnce } from "./report-once.mjs";
import { allNetworks } from "./networks.mjs";

export const ONBOARD_USAGE =
  "wgo up --api URL --network NAME_OR_ID [--name NAME] [--email EMAIL [--password-stdin] | --enrolment-key KEY] " +
  "[--interface wg0] [--netns NS] [--method auto|wg-quick|setconf] [--wait-handshake S]";
const USAGE = `usage: ${ONBOARD_USAGE}`;

export async function onboard(ctx, values) {
  // Every flag is checked before anything is sent: a typo must not leave a half-onboarded machine.
  if (values.name !== undefined) deviceName(values.name, USAGE);
  if (values.interface !== undefined) interfaceName(values.interface, USAGE);
  netnsName(values.netns, USAGE);
  oneOf("method", values.method ?? "auto", METHODS, USAGE);
  const waitSeconds = values["wait-handshake"] === undefined ? null : positiveInteger("wait-handshake", values["wait-handshake"], USAGE);
  const key = values["enrolment-key"];
  if (key && values.email) throw new UsageError("give --email (sign in) or --enrolment-key (no sign-in), not both", USAGE);

  const name = values.name ?? reusableDevice(ctx, values.network) ?? defaultName();
  const existing = readJson(paths.device(ctx.home, name));
  const api = ctx.api ?? existing?.api ?? loadSession(ctx.home)?.api ?? ctx.defaultApi;
  const at = { ...ctx, api };
  const steps = { signedIn: null, enrolled: "existing" };
  if (existing) await checkSameNetwork(at, existing, values.network);
  else {
    let network = null;
    if (key) {
      // The key decides the network; an id given too is checked by the server, a name needs a session.
      if (values.network && !values.network.startsWith("net_")) {
        if (loadSession(ctx.home)?.api !== api) {
          throw new UsageError(
            "with --enrolment-key, give --network as an id (net_…) or leave it out: the key decides the network (a name is looked up with a signed-in session)",
            USAGE,
          );
        }
        network = await findNetwork(at, values, steps);
      }
      steps.signedIn = steps.signedIn ?? "enrolment-key";
      await enrolDevice(at, { name, networkId: network?.id ?? values.network, enrolmentKey: key });
    } else {
      network = await findNetwork(at, values, steps);
      await enrolDevice(at, { name, networkId: network.id });
    }
    steps.enrolled = "new";
    const device = loadDevice(ctx.home, name);
    device.networkName = network?.name ?? null;
    saveDevice(ctx.home, device);
  }
  // A device enrolled before may hold an old config: onboarding again is also a refresh.
  const up = await bringUp(at, { ...values, name }, { usage: ONBOARD_USAGE, fresh: Boolean(existing) });
  const device = up.place.device;
  const where = `${device.networkName ? `${device.networkName} (${device.networkId})` : device.networkId} at ${api}`;
  const done = [
    steps.signedIn === "login" ? `signed in to ${api}` : null,
    steps.enrolled === "new"
      ? `enrolled "${name}" as ${device.deviceId} in ${where}, address ${device.address}`
      : `"${name}" is already enrolled in ${where} (${device.deviceId}): reusing it`,
    up.human,
  ].filter(Boolean);
  // No handshake fails the command, but what happened before it (enrolled, up) is true and needed next.
  const handshake =
    waitSeconds === null
      ? null
      : await waitForHandshake({ ...up.place, seconds: waitSeconds, now: ctx.now }).catch((error) => {
          ctx.note(done.join("\n"));
          throw error;
        });
  const reported = await reportOnce(at, { ...values, name });
  ctx.print(
    [
      ...done,
      handshake ? `handshake with ${handshake.peer} after ${handshake.seconds} s` : null,
      reported ? "reported to the API: the console shows this device as seen" : null,
    ]
      .filter(Boolean)
      .join("\n"),
    {
      ...up.data,
      api,
      networkId: device.networkId,
      networkName: device.networkName ?? null,
      deviceId: device.deviceId,
      nodeId: device.nodeId,
      address: device.address,
      publicKey: publicKeyOf(readPrivateKey(ctx.home, name)),
      signedIn: steps.signedIn,
      enrolled: steps.enrolled,
      handshake,
      reported,
    },
  );
}

/** Without --name, a device of this home already in that network (by id or the name it was joined by). */
function reusableDevice(ctx, network) {
  if (!network) return null;
  const matches = listDevices(ctx.home)
    .map((name) => loadDevice(ctx.home, name))
    .filter((device) => (!ctx.api || device.api === ctx.api) && (device.networkId === network || device.networkName === network));
  if (matches.length > 1) {
    throw new UsageError(`devices ${matches.map((d) => `"${d.name}"`).join(", ")} are all in ${network}: say which with --name`, USAGE);
  }
  return matches[0]?.name ?? null;
}

/** This host's name as a device name (a DNS label), as `tailscale up` names a machine. */
function defaultName() {
  const label = hostname()
    .toLowerCase()
    .split(".")[0]
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  if (!label) throw new UsageError(`this host's name "${hostname()}" makes no device name: give --name NAME`, USAGE);
  return label;
}

/**
 * A device of this name is enrolled already: reuse it when it is in the network asked for, at the same
 * API; otherwise refuse, since enrolling again would replace the key the existing device depends on.
 */
async function checkSameNetwork(ctx, device, wanted) {
  const label = `${device.networkName ? `${device.networkName} (${device.networkId})` : device.networkId}`;
  const move = `give another --name to enrol this machine there too, or \`wgo down --name ${device.name}\` and remove ${paths.devices(ctx.home)}/${device.name}.* to move it`;
  if (device.api !== ctx.api) {
    throw new OperationError(`device "${device.name}" is enrolled with ${device.api}, not ${ctx.api}: ${move}`, {
      code: "enrolled_elsewhere",
    });
  }
  if (!wanted || wanted === device.networkId || wanted === device.networkName) return;
  // Enrolled by id (`wgo enrol`), asked for by name: the session, if there is one, can tell.
  const session = loadSession(ctx.home);
  if (session?.api === ctx.api && !wanted.startsWith("net_")) {
    const network = chooseNetwork(await allNetworks(ctx), wanted);
    if (network.id === device.networkId) {
      device.networkName = network.name;
      saveDevice(ctx.home, device);
      return;
    }
  }
  throw new OperationError(`device "${device.name}" is enrolled in network ${label}, not "${wanted}": ${move}`, {
    code: "enrolled_elsewhere",
  });
}

/** The network asked for, among those the account sees; signs in first when there is no usable session. */
async function findNetwork(ctx, values, steps) {
  if (!values.network) throw new UsageError("--network NAME_OR_ID is required to enrol with a user session", USAGE);
  const session = loadSession(ctx.home);
  const usable = session?.api === ctx.api && (!values.email || !session.email || session.email === values.email);
  if (usable) {
    steps.signedIn = "session";
    try {
      return chooseNetwork(await allNetworks(ctx), values.network);
    } catch (error) {
      // The session ended (refresh refused): with an email to sign in with, do that instead of failing.
      if (!(error instanceof ApiError && error.status === 401 && values.email)) throw error;
    }
  }
  if (!values.email) {
    throw new UsageError(
      `not signed in to ${ctx.api}: give --email EMAIL (the password is asked for, or read with --password-stdin), or --enrolment-key KEY`,
      USAGE,
    );
  }
  const password = await readPassword(ctx, values, USAGE);
  await signIn(ctx, ctx.api, { email: values.email, password, totp: values.totp }, "wgo up");
  steps.signedIn = "login";
  return chooseNetwork(await allNetworks(ctx), values.network);
}
