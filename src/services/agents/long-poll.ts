import type { Db } from "../../db/client";
import { desiredStateEtag, type ServedNode, servedNodes } from "./desired-state";

/** How often a waiting poll re-reads the served nodes' revisions: one indexed query (nodes by gateway) each time. */
const CHECK_EVERY_MS = 1000;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });

/**
 * A daemon's long poll: it holds the state named by `etag`, and waits up to `seconds` for another one.
 * Every change a daemon must see (configs, keys, servesDns, zones) bumps a revision of a served node's
 * network, so re-reading those revisions about once a second sees it; the answer is the served nodes
 * at the new state, or null when time ran out or the client went away (`signal`).
 */
export async function awaitDesiredStateChange(
  db: Db,
  gatewayId: string,
  etag: string,
  seconds: number,
  signal?: AbortSignal,
): Promise<ServedNode[] | null> {
  const deadline = Date.now() + seconds * 1000;
  while (!signal?.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await pause(Math.min(CHECK_EVERY_MS, left), signal);
    if (signal?.aborted) return null;
    const served = await servedNodes(db, gatewayId);
    if (desiredStateEtag(served) !== etag) return served;
  }
  return null;
}
