// `wgo heartbeat`'s loop: beat, and with --apply long-poll the config between beats so that every change
// reaches the interface within about a second of its publication, however changes follow each other. The
// only pause is against a server that keeps saying "changed" while nothing it serves moves what this device
// holds: polling again would answer at once, again and again.
import { heldConfig } from "../device-state.mjs";
import { ApiError, CredentialRefusedError } from "../errors.mjs";
import { apiExchange } from "../http.mjs";
import { retryAfterMs } from "../retry-after.mjs";

/** Rounds (a beat, then maybe a poll) start at least this far apart: a server whose revision moves without end cannot spin the loop. */
export const MIN_ROUND_GAP_MS = 250;

/**
 * @param {any} ctx
 * @param {any} place the device, its interface and System (link.mjs placeDevice); `place.device` is re-read each beat
 * @param {{ interval: number, apply: boolean, beat: () => Promise<{ appliedRevision: number, applied: { revision: number } | null }> }} options
 *   `beat` sends one heartbeat (and applies a change when `apply`), answering the revision it reported and what it applied
 */
export async function heartbeatLoop(ctx, place, { interval, apply, beat }) {
  let stopping = false;
  let wake = () => {};
  const stop = () => {
    stopping = true;
    wake();
  };
  /** Sleeps `ms`, or less when a signal comes (at once when one came already). */
  const pause = (ms) =>
    new Promise((resolve) => {
      if (stopping || ms <= 0) return resolve(undefined);
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve(undefined);
      };
    });
  ctx.signals.on("SIGINT", stop);
  ctx.signals.on("SIGTERM", stop);
  try {
    // The revision a long poll last answered "changed" from; null when the last poll waited (or none ran).
    let changedFrom = null;
    let roundAt = Number.NEGATIVE_INFINITY;
    while (!stopping) {
      await pause(roundAt + MIN_ROUND_GAP_MS - Date.now());
      if (stopping) break;
      roundAt = Date.now();
      try {
        const report = await beat();
        // After an apply, beat again at once so the server learns the new revision without waiting. Only
        // when the revision moved: a server that hands out the same revision as a change cannot spin us.
        if (report.applied !== null && report.applied.revision !== report.appliedRevision) continue;
      } catch (error) {
        if (isFatal(error)) throw refused(error);
        ctx.reportError(error); // a network blip or a 5xx: keep beating
        // The server said when (a busy network's 503, a 429): neither poll nor beat before then.
        const later = retryAfterMs(error, { capMs: interval * 1000 });
        if (later !== null) {
          await pause(later);
          continue;
        }
      }
      if (stopping) break;
      const base = heldConfig(ctx.home, place.device.name)?.routingRevision ?? null;
      // A poll said "changed" from this very revision and the beat after it moved nothing: the next poll
      // would answer at once. Wait the interval instead (the next beat retries the apply).
      const stuck = changedFrom !== null && changedFrom === base;
      changedFrom = null;
      if (!apply || stuck || base === null) {
        await pause(interval * 1000);
        continue;
      }
      const polled = Date.now();
      const waited = new AbortController();
      wake = () => waited.abort();
      // With --apply, the time between beats is a long poll: a change (a tag removed, a peer revoked, a
      // gateway failover) is applied within a second instead of at the next beat.
      if (await untilConfigChanges(ctx, place, base, interval, waited.signal)) changedFrom = base;
      else await pause(polled + interval * 1000 - Date.now());
    }
  } finally {
    ctx.signals.off("SIGINT", stop);
    ctx.signals.off("SIGTERM", stop);
  }
}

/**
 * Holds `POST …/config?wait=` with the revision the device holds, up to `seconds` (the server allows 60).
 * True when the revision moved (beat and apply now); false when nothing changed or the poll failed (the
 * next beat reports and retries as before).
 */
async function untilConfigChanges(ctx, place, held, seconds, signal) {
  const wait = Math.min(seconds, 60);
  try {
    const { body } = await apiExchange({
      api: ctx.api ?? place.device.api,
      token: place.device.deviceToken,
      path: `/client/devices/${encodeURIComponent(place.device.deviceId)}/config?wait=${wait}`,
      body: /** @satisfies {import("../api-types.js").RequestBody<"/client/devices/{id}/config", "post">} */ ({ sinceRevision: held }),
      timeoutMs: (wait + 15) * 1000,
      signal,
    });
    const revision = body?.delta?.routingRevision ?? body?.config?.routingRevision;
    return typeof revision === "number" && revision !== held;
  } catch (error) {
    if (isFatal(error)) throw refused(error);
    return false;
  }
}

/** A device that was deleted or lost its rights will not come back by retrying. */
const isFatal = (error) => error instanceof ApiError && [401, 403, 404].includes(error.status);

/** The loop's end on a refused credential: exit 3, which the systemd unit does not restart on. */
const refused = (error) =>
  new CredentialRefusedError(
    `the API refused the device credential (${error.status} ${error.code}: ${error.message}): the device was deleted or revoked; enrol this machine again`,
  );
