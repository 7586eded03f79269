// `wgo up --network NAME_OR_ID`: a new machine's whole onboarding in one command, like `tailscale up`.
// Signs in when it has to, picks the network by id or name, enrols once (a machine already enrolled
// there reuses its device), fetches the config and brings the interface up, with the same code as the
// separate commands (login, networks, enrol, config, up).
import { deviceName, interfaceName, netnsName, oneOf, positiveInteger } from "../args.mjs";
import { loadDevice, readPrivateKey, saveDevice } from "../device-state.mjs";
import { ApiError, UsageError } from "../errors.mjs";
import { paths, readJson } from "../files.mjs";
import { waitForHandshake } from "../handshake-wait.mjs";
import { METHODS } from "../interface.mjs";
import { publicKeyOf } from "../keys.mjs";
import { chooseNetwork } from "../network-choice.mjs";
import { loadSession } from "../session.mjs";
import { readPassword, signIn } from "../sign-in.mjs";
import { enrolDevice } from "./enrol.mjs";
import { checkSameNetwork, onboardingDevice } from "./onboard-device.mjs";
import { bringUp } from "./link.mjs";
import { reportOnce } from "./report-once.mjs";
import { allNetworks } from "./networks.mjs";

export const ONBOARD_USAGE =
  "wgo up --api URL --network NAME_OR_ID [--name NAME] [--email EMAIL [--password-stdin] | --enrolment-key KEY] " +
  "[--interface wg0] [--netns NS] [--method auto|wg-quick|setconf] [--wait-handshake S] [--service]";
const USAGE = `usage: ${ONBOARD_USAGE}`;

/** @returns {Promise<string>} the device's name (this home's), for `--service` */
export async function onboard(ctx, values) {
  // Every flag is checked before anything is sent: a typo must not leave a half-onboarded machine.
  if (values.name !== undefined) deviceName(values.name, USAGE);
  if (values.interface !== undefined) interfaceName(values.interface, USAGE);
  netnsName(values.netns, USAGE);
  oneOf("method", values.method ?? "auto", METHODS, USAGE);
  const waitSeconds = values["wait-handshake"] === undefined ? null : positiveInteger("wait-handshake", values["wait-handshake"], USAGE);
  const key = values["enrolment-key"];
  if (key && values.email) throw new UsageError("give --email (sign in) or --enrolment-key (no sign-in), not both", USAGE);

  const { name, nodeName } = await onboardingDevice(ctx, values, USAGE);
  const existing = readJson(paths.device(ctx.home, name));
  const api = ctx.api ?? existing?.api ?? loadSession(ctx.home)?.api ?? ctx.defaultApi;
  const at = { ...ctx, api };
  const steps = { signedIn: null, enrolled: "existing" };
  if (existing) await checkSameNetwork(at, existing, values.network);
  else {
    let network = null;
    if (key) {
      // The key decides the network; an id given too is checked by the server; a name is looked up with a
      // session, and without one kept as the network's name here (what the console's command names it).
      const named = values.network && !values.network.startsWith("net_") ? values.network : null;
      if (named && loadSession(ctx.home)?.api === api) network = await findNetwork(at, values, steps);
      else if (named)
        ctx.note(`the enrolment key decides the network; "${named}" is kept as its name on this machine (not checked: no session)`);
      steps.signedIn = steps.signedIn ?? "enrolment-key";
      await enrolDevice(at, { name, nodeName, networkId: network?.id ?? (named ? undefined : values.network), enrolmentKey: key });
      network ??= named ? { name: named } : null;
    } else {
      network = await findNetwork(at, values, steps);
      await enrolDevice(at, { name, nodeName, networkId: network.id });
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
  return name;
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
