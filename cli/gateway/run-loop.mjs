// `wgo gateway run`'s loop: poll the desired state (ETag + long poll, so a change arrives within a second
// or so), apply every served node, take down nodes that left, report what runs, repeat. The API being
// down changes nothing that runs: the loop retries with backoff and the interfaces keep their last state.
// A revoked or rotated credential (401) ends the loop: nothing but a new enrolment can fix that.
import { ApiError, CredentialRefusedError, NetworkError, OperationError } from "../errors.mjs";
import { fetchDesiredState, LONG_POLL_SECONDS, sendReports } from "./agent-api.mjs";
import { availableDnsServer } from "./dns-server.mjs";
import { applyNode, heldEntry, peerCounters, removeNode } from "./node-apply.mjs";
import { heldNodeIds, loadNode, loadStatus, saveStatus } from "./state.mjs";

const BACKOFF_MS = { first: 1_000, max: 30_000 };
const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MIN_POLL_GAP_MS = 1_000;

/** Worth waiting out: the API unreachable, overloaded (5xx) or throttling us (429). */
const isTransient = (error) =>
  error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429));

/** A 429's Retry-After when the server gives one (capped like the backoff), else the backoff. */
function retryDelay(error, backoff) {
  const seconds = error instanceof ApiError ? Number(error.retryAfter) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, BACKOFF_MS.max) : backoff;
}

/**
 * @param {{ dir: string, agent: import("./state.mjs").AgentRecord, netns: string | null, env: NodeJS.ProcessEnv,
 *   createSystem: Function, once: boolean, log: (line: string) => void, signal: AbortSignal, now: () => number }} options
 * @returns {Promise<{ polls: number, applied: number }>}
 */
export async function runGateway(options) {
  const { dir, agent, netns, log, signal } = options;
  const systemFor = (ns) => options.createSystem({ netns: ns ?? undefined, env: options.env });
  const sys = systemFor(netns);
  const dnsKind = await availableDnsServer(sys);
  if (!dnsKind) log("no DNS server found (coredns, or knotd from Debian's knot): this gateway serves no zone");
  const ctx = { dir, agent, sys, systemFor, netns, env: options.env, dnsKind };
  let etag = null;
  let backoff = BACKOFF_MS.first;
  let polls = 0;
  let applied = 0;
  while (!signal.aborted) {
    try {
      const held = heldNodeIds(dir)
        .map((id) => heldEntry(dir, id))
        .filter(Boolean);
      const wait = options.once || etag === null ? 0 : LONG_POLL_SECONDS;
      const asked = Date.now();
      const answer = await fetchDesiredState(agent, { etag, held, wait, signal });
      polls += 1;
      const outcome =
        answer.status === 304 ? { applied: 0, failed: false, claimed: false } : await applyDesiredState(ctx, answer.body, log);
      applied += outcome.applied;
      await reportOrLog(ctx, dir, log);
      const desired = answer.body ? desiredRevisions(answer.body) : (loadStatus(dir)?.desired ?? {});
      saveStatus(dir, { at: new Date(options.now()).toISOString(), error: null, desired });
      // A node that failed, or a key the server has just learnt, is fetched again rather than waited for:
      // a new key at once (its revision is ready), a failure after a growing pause.
      etag = outcome.failed || outcome.claimed ? null : answer.etag;
      if (options.once) break;
      if (outcome.failed) {
        await pause(backoff, signal);
        backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      } else {
        backoff = BACKOFF_MS.first;
        // A 304 long before the poll's time (a proxy that ignores ?wait) must not turn into a busy loop.
        if (answer.status === 304 && Date.now() - asked < MIN_POLL_GAP_MS) await pause(MIN_POLL_GAP_MS, signal);
      }
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new CredentialRefusedError(
          `the API refused the agent credential (${error.status} ${error.code}: ${error.message}): it was revoked or rotated; enrol again with \`wgo gateway enrol\``,
        );
      }
      if (!isTransient(error) || options.once) throw error;
      const delay = retryDelay(error, backoff);
      log(`the API is unreachable or busy (${error.message}); keeping what runs, retrying in ${delay / 1000} s`);
      saveStatus(dir, { ...loadStatus(dir), error: error.message });
      await pause(delay, signal);
      backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      etag = null;
    }
  }
  return { polls, applied };
}

/** Applies every node the server gives this gateway and removes the ones it no longer does. */
async function applyDesiredState(ctx, desired, log) {
  let applied = 0;
  let failed = false;
  let claimed = false;
  const wanted = new Set(desired.nodes.map((node) => node.nodeId));
  for (const nodeId of heldNodeIds(ctx.dir).filter((id) => !wanted.has(id))) {
    try {
      await removeNode(ctx, nodeId);
      log(`node ${nodeId} left this gateway: its interface and DNS server are removed`);
    } catch (error) {
      // Kept (with its state) and retried on the next answer; the nodes still served go on.
      log(`node ${nodeId} left this gateway, but removing it failed: ${error.message}`);
      failed = true;
    }
  }
  for (const entry of desired.nodes) {
    // Node ids name directories here: anything but an id's characters is refused, never joined into a path.
    if (!NODE_ID.test(entry.nodeId)) {
      log(`skipped a node with the id ${JSON.stringify(entry.nodeId)}: not an id`);
      failed = true;
      continue;
    }
    const outcome = await applyNode(ctx, entry);
    const record = outcome.record;
    claimed ||= outcome.claimed;
    if (record.error) log(`node ${entry.nodeId}: ${record.error}`);
    else {
      applied += 1;
      log(`node ${entry.nodeId}: routing revision ${record.appliedRouting}, DNS revision ${record.appliedDns ?? "-"} on ${record.ifname}`);
    }
    failed ||= Boolean(record.error);
  }
  return { applied, failed, claimed };
}

/**
 * A report that fails locally (a `wg show` refused) or that the server refuses for a node (moved to another
 * gateway since the poll: 404) is logged, and the next round reports again; the loop and what runs go on.
 * A refused credential and an unreachable API are the loop's to handle.
 */
async function reportOrLog(ctx, dir, log) {
  try {
    await report(ctx, dir);
  } catch (error) {
    const refusedForANode =
      error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status);
    if (error instanceof OperationError || refusedForANode) log(`no report this round: ${error.message}`);
    else throw error;
  }
}

/** Applied revisions, errors and per-peer counters of every node held (the server also sees the agent alive). */
async function report(ctx, dir) {
  const nodes = [];
  for (const nodeId of heldNodeIds(dir)) {
    const record = loadNode(dir, nodeId);
    if (!record) continue;
    nodes.push({
      nodeId,
      appliedRoutingRevision: record.appliedRouting,
      appliedDnsRevision: record.appliedDns,
      peers: await peerCounters(ctx.systemFor(record.netns), record.ifname),
      error: record.error ? record.error.slice(0, 500) : null,
    });
  }
  if (nodes.length > 0) await sendReports(ctx.agent, nodes);
}

/** What the server wants of each node, for `wgo gateway status`. */
function desiredRevisions(body) {
  return Object.fromEntries(body.nodes.map((n) => [n.nodeId, { routing: (n.config ?? n.delta).routingRevision, dns: n.dns.revision }]));
}

/**
 * Sleeps, or returns early when the daemon is told to stop, including before the pause began (a SIGTERM
 * during an apply must not wait out a 30-second backoff). The listener goes with the pause: the daemon's
 * one signal outlives every pause.
 */
export function pause(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
