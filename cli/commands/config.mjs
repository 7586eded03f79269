// `wgo config`: fetch the device's current configuration and write the wg-quick file it applies.
import { deviceName } from "../args.mjs";
import { fetchConfig, loadDevice, storeConfig } from "../device-state.mjs";
import { paths } from "../files.mjs";

const USAGE = "wgo config --name NAME [--out FILE]";

/** @type {import("../args.mjs").Command} */
export const config = {
  name: "config",
  summary: "fetch the device's config and write its wg-quick file (private key filled in, 0600)",
  usage: USAGE,
  options: {
    name: { type: "string", value: "NAME", help: "the enrolled device" },
    out: { type: "string", value: "FILE", help: `also write the file here (the managed copy is <home>/devices/NAME.conf)` },
  },
  required: ["name"],
  async run(ctx, values) {
    const device = loadDevice(ctx.home, deviceName(values.name, `usage: ${USAGE}`));
    const fetched = await fetchConfig(ctx, device);
    storeConfig(ctx.home, device, fetched, values.out);
    const files = [paths.config(ctx.home, device.name), ...(values.out ? [values.out] : [])];
    ctx.print(
      `wrote ${files.join(" and ")} (routing revision ${fetched.routingRevision}, ${fetched.peers.length} peers, ` +
        `${fetched.routingIntent.length} routing intents); applied revision: ${device.appliedRevision ?? "none"}`,
      {
        name: device.name,
        files,
        routingRevision: fetched.routingRevision,
        appliedRevision: device.appliedRevision,
        peers: fetched.peers.length,
        routingIntent: fetched.routingIntent,
      },
    );
  },
};
