// The one heartbeat `wgo up` sends at its end, so the console shows the device as seen (and at which
// revision) right away, not "unknown / never" until a separate `wgo heartbeat` runs. It is the heartbeat
// command's own beat (same report), run quietly: its line would repeat what `up` just printed.
//
// Its peer report is a full one (base null): the interface was just applied, possibly created anew with
// zeroed counters, so what the server held of an earlier interface is no base to build on. The seq the
// server answers is kept (devices/NAME.peerreport), so the next `wgo heartbeat` sends only a delta.
import { writeSecretJson, paths } from "../files.mjs";
import { emptyReportState, stateToJson } from "../peer-report.mjs";
import { heartbeat } from "./heartbeat.mjs";

/**
 * One quiet `wgo heartbeat --once` for the device just brought up, as a full peer report. A report that
 * fails does not undo a working interface: it is said as a note, and `up` still succeeds.
 * @returns {Promise<boolean>} whether the API took the report
 */
export async function reportOnce(ctx, values) {
  const quiet = { ...ctx, print: () => {}, note: () => {} };
  try {
    writeSecretJson(paths.peerReport(ctx.home, values.name), stateToJson(emptyReportState()));
    await heartbeat.run(quiet, { name: values.name, interface: values.interface, netns: values.netns, once: true });
    return true;
  } catch (error) {
    ctx.note(`the device is up, but its first heartbeat failed (${error.message}): run \`wgo heartbeat --name ${values.name} --once\``);
    return false;
  }
}
