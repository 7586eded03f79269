import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { networkWriter } from "../../objects/network/client";
import { desiredStateEtag, type ServedNode, servedNodes } from "./desired-state";

/** How often a waiting poll re-reads the served nodes' revisions: one indexed query (nodes by gateway) each time. */
const CHECK_EVERY_MS = 1000;

const pause = (ms: number, signals: AbortSignal[]) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener("abort", done);
      resolve();
    }
    for (const signal of signals) signal.addEventListener("abort", done);
  });

/**
 * A daemon's long poll: it holds the state named by `etag`, and waits up to `seconds` for another one.
 * Every change a daemon must see (configs, keys, servesDns, zones) bumps a revision of a served node's
 * network, so re-reading those revisions about once a second sees it. A routing change (a failover above
 * all) must not wait for that second: each served network's writer is asked to answer when its routing
 * revision moves (it wakes its waiters after the commit), and that answer cuts the pause short. The
 * answer is the served nodes at the new state, or null when time ran out or the client went away (`signal`).
 */
export async function awaitDesiredStateChange(
  env: Env,
  db: Db,
  gatewayId: string,
  held: ServedNode[],
  seconds: number,
  signal?: AbortSignal,
): Promise<ServedNode[] | null> {
  const etag = desiredStateEtag(held);
  const deadline = Date.now() + seconds * 1000;
  const moved = new AbortController();
  wakeOnRoutingChange(env, held, seconds * 1000, moved);
  const signals = signal ? [signal, moved.signal] : [moved.signal];
  let wakeSeen = false;
  while (!signal?.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) return null;
    // A wake that came while the last check ran is not waited out: the next check runs at once.
    if (!moved.signal.aborted || wakeSeen) await pause(Math.min(CHECK_EVERY_MS, left), signals);
    if (moved.signal.aborted) wakeSeen = true;
    if (signal?.aborted) return null;
    const served = await servedNodes(db, gatewayId);
    if (desiredStateEtag(served) !== etag) return served;
  }
  return null;
}

/** One wait per served network in its writer; the first to answer aborts `moved`. A failed wait only leaves the D1 check. */
function wakeOnRoutingChange(env: Env, held: ServedNode[], ms: number, moved: AbortController) {
  const revisions = new Map(held.map((node) => [node.networkId, node.routingRevision]));
  for (const [networkId, revision] of revisions) {
    networkWriter(env, networkId)
      .awaitRoutingChange(networkId, revision, ms)
      .then(
        (answer) => {
          if (answer.ok) moved.abort();
        },
        () => {},
      );
  }
}
