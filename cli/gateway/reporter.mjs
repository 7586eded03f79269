// What a gateway tells the server about the nodes it runs: applied revisions, errors, per-peer counters
// (as delta peer reports: gateway/peer-reports.mjs), and the forwarding probes the server asked for (a
// ping to a node beyond a pool's active member, which only answers if that member forwards: judged
// continuously by gateway/prober.mjs). Sent after every applied change, every few seconds between, and at
// once when a probe turns down or up.
import { ApiError, NetworkError, OperationError } from "../errors.mjs";
import { pause } from "./pause.mjs";
import { readInterface, sendNodeReports } from "./peer-reports.mjs";
import { MAX_PROBES } from "./prober.mjs";
import { heldNodeIds, loadNode } from "./state.mjs";

/** The shortest gap between two reports sent for probes turning: a burst of turns is one report. */
export const TURN_REPORT_GAP_MS = 200;

/**
 * A report that fails locally (a `wg show` refused) or that the server refuses for a node (moved to another
 * gateway since the poll: 404) is logged, and the next round reports again; the loop and what runs go on.
 * A refused credential and an unreachable API are the poll loop's to handle.
 */
export async function reportOrLog(ctx, log) {
  try {
    await oneAtATime(ctx, () => report(ctx));
  } catch (error) {
    const refusedForANode =
      error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status);
    if (error instanceof OperationError || refusedForANode) log(`no report this round: ${error.message}`);
    else throw error;
  }
}

/** Reports every `intervalMs` until stopped; what fails here is logged (the poll loop decides on credentials). */
export async function reportEvery(ctx, log, signal, intervalMs) {
  while (!signal.aborted) {
    await pause(intervalMs, signal);
    if (signal.aborted) return;
    await reportQuietly(ctx, log);
  }
}

async function reportQuietly(ctx, log) {
  try {
    await reportOrLog(ctx, log);
  } catch (error) {
    if (!(error instanceof NetworkError || error instanceof ApiError)) log(`report failed: ${error.message}`);
  }
}

/**
 * Reports sent when a probe turns, between the periodic ones: `request()` sends one at once, or, within
 * TURN_REPORT_GAP_MS of the last, one at the end of that gap (several turns then share it; the report
 * reads the judgement when it is built). `close()` drops what is pending and waits for what is sent.
 */
export function reportOnTurn(ctx, log, gapMs = TURN_REPORT_GAP_MS) {
  let last = Number.NEGATIVE_INFINITY;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  let closed = false;
  const sending = new Set();
  const send = () => {
    timer = null;
    last = Date.now();
    const report = reportQuietly(ctx, log).finally(() => sending.delete(report));
    sending.add(report);
  };
  return {
    request() {
      if (closed || timer) return;
      timer = setTimeout(send, Math.max(0, last + gapMs - Date.now()));
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.all(sending);
    },
  };
}

/**
 * The poll loop reports after an apply while the report clock runs: one report at a time per agent, so
 * two never send pages from the same base (the second would only be answered with a resync).
 */
const running = new WeakMap();
function oneAtATime(ctx, task) {
  const next = (running.get(ctx) ?? Promise.resolve()).then(task, task);
  running.set(
    ctx,
    next.catch(() => {}),
  );
  return next;
}

/** Applied revisions, errors, peer reports and probe results of every node held. */
async function report(ctx) {
  const nodes = [];
  for (const nodeId of heldNodeIds(ctx.dir)) {
    const record = loadNode(ctx.dir, nodeId);
    if (!record) continue;
    const sys = ctx.systemFor(record.netns);
    // The running agent reads its probes' judgement; a single run (--once) has none and pings once.
    const probes = ctx.prober ? ctx.prober.results(nodeId, record.netns, record.probes ?? []) : await runProbes(sys, record.probes ?? []);
    const fields = {
      nodeId,
      appliedRoutingRevision: record.appliedRouting,
      appliedDnsRevision: record.appliedDns,
      error: record.error ? record.error.slice(0, 500) : null,
      // Only when asked for: a server without pools knows no `probes` field.
      ...(probes.length > 0 ? { probes } : {}),
    };
    nodes.push({ nodeId, fields, dump: await readInterface(sys, record.ifname) });
  }
  if (nodes.length > 0) await sendNodeReports(ctx, nodes);
}

/** One echo request to each target, in parallel, in the node's namespace: answered or not. */
async function runProbes(sys, probes) {
  return Promise.all(
    probes.slice(0, MAX_PROBES).map(async (probe) => ({
      acrossNodeId: probe.acrossNodeId,
      target: probe.target,
      ok: (await sys.run(["ping", "-c", "1", "-W", "1", "-q", probe.target])).code === 0,
    })),
  );
}
