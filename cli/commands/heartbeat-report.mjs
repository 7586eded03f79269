// The body of one heartbeat (`wgo heartbeat`): the applied revision with a delta peer report
// (cli/peer-report.mjs, docs/scale.md "Peer reports"), paged when it does not fit one request; what the
// server holds of it is kept in devices/NAME.peerreport, the base of the next beat's delta.
import { deviceRequest } from "../device-state.mjs";
import { ApiError } from "../errors.mjs";
import { paths, readJson, writeSecretJson } from "../files.mjs";
import { countersOf, emptyReportState, reportPeers, stateFromJson, stateToJson } from "../peer-report.mjs";
import { heartbeatPeers } from "../system.mjs";

/**
 * The heartbeat itself: one request per page of the delta peer report (cli/peer-report.mjs), each
 * carrying the revision; the answer of the last is the beat's. A server from before peer reports
 * refuses the field (422): then the old form, every peer in one array, as wgo sent it before.
 */
export async function sendBeat(ctx, device, appliedRevision, dump) {
  const path = `/client/devices/${encodeURIComponent(device.deviceId)}/heartbeat`;
  const stateFile = paths.peerReport(ctx.home, device.name);
  const held = stateFromJson(readJson(stateFile));
  let ack;
  try {
    const done = await reportPeers(held, countersOf(dump.peers), async (peerReport) => {
      ack = await deviceRequest(ctx, device, {
        path,
        body: /** @satisfies {import("../api-types.js").RequestBody<"/client/devices/{id}/heartbeat", "post">} */ ({
          appliedRevision,
          peerReport,
        }),
      });
      return ack.peerReport;
    });
    writeSecretJson(stateFile, stateToJson(done.state));
    const changed = done.pages.reduce((sum, page) => sum + page.changed.length, 0);
    const removed = done.pages.reduce((sum, page) => sum + page.removed.length, 0);
    const bytes = Math.max(...done.pages.map((page) => JSON.stringify({ appliedRevision, peerReport: page }).length));
    return {
      ack,
      report: {
        form: "delta",
        pages: done.pages.length,
        changed,
        removed,
        full: done.pages.some((page) => page.base === null),
        largestBodyBytes: bytes,
      },
    };
  } catch (error) {
    if (!refusesPeerReport(error)) throw error;
    writeSecretJson(stateFile, stateToJson(emptyReportState()));
    ack = await deviceRequest(ctx, device, {
      path,
      body: /** @satisfies {import("../api-types.js").RequestBody<"/client/devices/{id}/heartbeat", "post">} */ ({
        appliedRevision,
        peers: heartbeatPeers(dump),
      }),
    });
    return { ack, report: { form: "list", pages: 1, changed: dump.peers.length, removed: 0, full: true } };
  }
}

const refusesPeerReport = (error) =>
  error instanceof ApiError &&
  error.status === 422 &&
  error.fields.some((field) => field.path === "peerReport" && field.message === "Unknown field");

export const describeSent = (sent) =>
  sent.form === "list"
    ? "all in one list: the server predates peer reports"
    : `${sent.full ? "full report" : "delta"}: ${sent.changed} changed, ${sent.removed} removed, ${sent.pages} request${sent.pages === 1 ? "" : "s"}`;
