// `wgo up`, both forms: `--name NAME` brings an enrolled device's interface up (link.mjs); with
// `--network` (or `--enrolment-key`) it onboards this machine first, in the same command (onboard.mjs).
import { UsageError } from "../errors.mjs";
import { METHODS } from "../interface.mjs";
import { bringUp, placement, UP_USAGE } from "./link.mjs";
import { deviceService, installUnit } from "./install-service.mjs";
import { ONBOARD_USAGE, onboard } from "./onboard.mjs";
import { reportOnce } from "./report-once.mjs";

/** @type {import("../args.mjs").Command} */
export const up = {
  name: "up",
  summary:
    "bring this machine onto a network: sign in, enrol once, fetch the config, bring the interface up (or just up an enrolled device)",
  usage: `${UP_USAGE}\n       ${ONBOARD_USAGE}`,
  options: {
    ...placement,
    name: { type: "string", value: "NAME", help: "the device (a DNS label); with --network the default is this host's name" },
    method: {
      type: "string",
      value: "M",
      help: `${METHODS.slice(1).join(" or ")}; auto (default) takes wg-quick if the kernel module works`,
    },
    network: { type: "string", value: "NAME_OR_ID", help: "onboard: the network to join, by id or exact name (`wgo networks`)" },
    email: { type: "string", value: "EMAIL", help: "onboard: sign in as this account when there is no session (the password is prompted)" },
    "password-stdin": { type: "boolean", help: "onboard: read the password from standard input instead of prompting" },
    totp: { type: "string", value: "CODE", help: "onboard: MFA code when the account has MFA on" },
    "enrolment-key": { type: "string", value: "KEY", help: "onboard without signing in: an ek_… enrolment key (it decides the network)" },
    "wait-handshake": { type: "string", value: "S", help: "then wait up to S seconds for a handshake with a peer (exit 1 if none)" },
    service: {
      type: "boolean",
      help: "then install and start this device's systemd unit (`wgo install-service --name NAME`): heartbeats, config changes",
    },
  },
  async run(ctx, values) {
    if (values.network !== undefined || values["enrolment-key"] !== undefined) {
      const name = await onboard(ctx, values);
      if (values.service) await keepRunning(ctx, name);
      return;
    }
    if (!values.name) throw new UsageError("--name is required (or --network NAME_OR_ID, to onboard this machine)", `usage: ${up.usage}`);
    for (const flag of ["email", "password-stdin", "totp", "wait-handshake"]) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --network (onboarding)`, `usage: ${up.usage}`);
    }
    const { human, data } = await bringUp(ctx, values);
    const reported = await reportOnce(ctx, values);
    ctx.print(reported ? `${human}\nreported to the API: the console shows this device as seen` : human, { ...data, reported });
    if (values.service) await keepRunning(ctx, values.name);
  },
};

/**
 * `--service`: the device's unit, so that it heartbeats and follows config changes after this command (and
 * comes back after a reboot). Without it a device that followed `wgo up` alone would never heartbeat again.
 * `WGO_UNIT_DIR` writes it elsewhere than /etc/systemd/system (tests, other layouts).
 */
const keepRunning = (ctx, name) => installUnit(ctx, deviceService(ctx, name), { unitDir: ctx.env.WGO_UNIT_DIR, enable: true });
