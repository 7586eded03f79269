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
 * carrying the revision (and `localEndpoints`, when known); the answer of the last is the beat's. A server
 * from before issue 28 refuses the NAT fields (422): the same beat again without them. A server from
 * before peer reports refuses the field: then the old form, every peer in one array, as wgo sent it before.
 * @param {{ localEndpoints?: string[] }} [extra]
 */
export async function sendBeat(ctx, device, appliedRevision, dump, extra = {}) {
  try {
    try {
      return await deltaBeat(ctx, device, appliedRevision, dump, extra.localEndpoints);
    } catch (error) {
      if (!refusesNatFields(error)) throw error;
      return await deltaBeat(ctx, device, appliedRevision, dump, undefined, { endpoints: false });
    }
  } catch (error) {
    if (!refusesPeerReport(error)) throw error;
    writeSecretJson(paths.peerReport(ctx.home, device.name), stateToJson(emptyReportState()));
    const ack = await deviceRequest(ctx, device, {
      path: beatPath(device),
      body: /** @satisfies {import("../api-types.js").RequestBody<"/client/devices/{id}/heartbeat", "post">} */ ({
        appliedRevision,
        // A server that refuses peerReport predates endpoints too.
        peers: heartbeatPeers(dump, { endpoints: false }),
      }),
    });
    return { ack, report: { form: "list", pages: 1, changed: dump.peers.length, removed: 0, full: true } };
  }
}

const beatPath = (device) => `/client/devices/${encodeURIComponent(device.deviceId)}/heartbeat`;

async function deltaBeat(ctx, device, appliedRevision, dump, localEndpoints, { endpoints = true } = {}) {
  const stateFile = paths.peerReport(ctx.home, device.name);
  const held = stateFromJson(readJson(stateFile));
  let ack;
  const bodyOf = (peerReport) =>
    /** @satisfies {import("../api-types.js").HeartbeatBody} */ ({
      appliedRevision,
      ...(localEndpoints ? { localEndpoints } : {}),
      peerReport,
    });
  const done = await reportPeers(held, countersOf(dump.peers, { endpoints }), async (peerReport) => {
    ack = await deviceRequest(ctx, device, { path: beatPath(device), body: bodyOf(peerReport) });
    return ack.peerReport;
  });
  writeSecretJson(stateFile, stateToJson(done.state));
  const changed = done.pages.reduce((sum, page) => sum + page.changed.length, 0);
  const removed = done.pages.reduce((sum, page) => sum + page.removed.length, 0);
  const bytes = Math.max(...done.pages.map((page) => JSON.stringify(bodyOf(page)).length));
  return {
    ack,
    report: {
      form: "delta",
      pages: done.pages.length,
      changed,
      removed,
      full: done.pages.some((page) => page.base === null),
      largestBodyBytes: bytes,
      ...(localEndpoints ? { localEndpoints: localEndpoints.length } : {}),
    },
  };
}

/**
 * A server from before issue 28 (docs/nat.md): it knows no localEndpoints, no endpoint in a peer tuple. Exactly
 * those paths (unknown field, tuple too long): an endpoint refused for what it is (`…changed.N.4`) is not that.
 */
const refusesNatFields = (error) =>
  error instanceof ApiError &&
  error.status === 422 &&
  error.fields.some((field) => /^(localEndpoints|peerReport\.changed\.\d+|peers\.\d+\.endpoint)$/.test(field.path));

const refusesPeerReport = (error) =>
  error instanceof ApiError &&
  error.status === 422 &&
  error.fields.some((field) => field.path === "peerReport" && field.message === "Unknown field");

export const describeSent = (sent) =>
  sent.form === "list"
    ? "all in one list: the server predates peer reports"
    : `${sent.full ? "full report" : "delta"}: ${sent.changed} changed, ${sent.removed} removed, ${sent.pages} request${sent.pages === 1 ? "" : "s"}`;
