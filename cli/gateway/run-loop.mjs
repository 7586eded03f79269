// `wgo gateway run`'s loop: poll the desired state (ETag + long poll, so a change arrives within a second
// or so), apply every served node, take down nodes that left, report what runs, repeat. The API being
// down changes nothing that runs: the loop retries with backoff and the interfaces keep their last state.
// A revoked or rotated credential (401) ends the loop: nothing but a new enrolment can fix that.
import { ApiError, CredentialRefusedError, NetworkError } from "../errors.mjs";
import { retryAfterMs } from "../retry-after.mjs";
import { fetchDesiredState, LONG_POLL_SECONDS } from "./agent-api.mjs";
import { availableDnsServer } from "./dns-server.mjs";
import { syncDomains } from "./domain-apply.mjs";
import { egressOf } from "./domains.mjs";
import { applyNode, heldEntry, removeNode } from "./node-apply.mjs";
import { pause } from "./pause.mjs";
import { DEFAULT_PROBE_RULES, probeRulesFrom } from "./probe-judge.mjs";
import { createProber, probeHeldNodes } from "./prober.mjs";
import { reportEvery, reportOnTurn, reportOrLog } from "./reporter.mjs";
import { heldNodeIds, loadNode, loadStatus, saveNode, saveStatus } from "./state.mjs";

const BACKOFF_MS = { first: 1_000, max: 30_000 };
const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MIN_POLL_GAP_MS = 1_000;
/** How often the agent reports (and probes) between polls. */
export const REPORT_EVERY_MS = 3_000;

/** Worth waiting out: the API unreachable, overloaded (5xx) or throttling us (429). */
const isTransient = (error) =>
  error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429));

/** A 429's or 503's Retry-After, with jitter (retry-after.mjs), when the server gives one (capped like the backoff), else the backoff. */
const retryDelay = (error, backoff) => retryAfterMs(error, { capMs: BACKOFF_MS.max }) ?? backoff;

/**
 * @param {{ dir: string, agent: import("./state.mjs").AgentRecord, netns: string | null, env: NodeJS.ProcessEnv,
 *   createSystem: Function, once: boolean, log: (line: string) => void, signal: AbortSignal, now: () => number,
 *   reportIntervalMs?: number }} options
 * @returns {Promise<{ polls: number, applied: number }>}
 */
export async function runGateway(options) {
  const { dir, agent, netns, log, signal } = options;
  const systemFor = (ns) => options.createSystem({ netns: ns ?? undefined, env: options.env });
  const sys = systemFor(netns);
  const dnsKind = await availableDnsServer(sys);
  if (!dnsKind) log("no DNS server found (coredns, or knotd from Debian's knot): this gateway serves no zone");
  /** @type {import("./node-apply.mjs").NodeContext} */
  const ctx = { dir, agent, sys, systemFor, netns, env: options.env, dnsKind, prober: null, reportSoon: null };
  // Between polls (a long poll holds 25 s) reports keep coming: liveness and forwarding probes are what a
  // gateway pool's failover is decided on, so they cannot wait for the next change. The probes run all the
  // time and a probe that turns is reported at once. All of it ends with the poll loop, however that ends.
  const done = new AbortController();
  const stop = () => done.abort();
  signal.addEventListener("abort", stop, { once: true });
  const reporting = options.once ? null : reportEvery(ctx, log, done.signal, options.reportIntervalMs ?? REPORT_EVERY_MS);
  const turns = options.once ? null : reportOnTurn(ctx, log);
  if (turns) ctx.prober = createProber({ systemFor, log, onTurn: () => turns.request(), rules: DEFAULT_PROBE_RULES });
  // The report after an apply goes out beside the next long poll, not before it: a poll that waited for it
  // would miss a change made meanwhile (a failover right after a repair) by the report's length.
  ctx.reportSoon = turns ? () => turns.request() : null;
  try {
    return await pollLoop(options, ctx);
  } finally {
    done.abort();
    signal.removeEventListener("abort", stop);
    await ctx.prober?.stop();
    await turns?.close();
    await reporting;
  }
}

async function pollLoop(options, ctx) {
  const { dir, agent, log, signal } = options;
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
      // The running agent probes what its held nodes carry now, at the server's cadence.
      if (answer.status !== 304 && ctx.prober) await probeHeldNodes(ctx.prober, dir, probeRulesFrom(answer.body.probeRules));
      if (ctx.reportSoon && answer.status !== 304) ctx.reportSoon();
      else if (!ctx.reportSoon) await reportOrLog(ctx, log);
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
      log(`the API is unreachable or busy (${error.message}); keeping what runs, retrying in ${(delay / 1000).toFixed(1)} s`);
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
  failed = (await syncRoutingDomains(ctx, log)) || failed;
  return { applied, failed, claimed };
}

/**
 * The networks' routing domains after their nodes: veths, egress routes and the host's table. An egress
 * destination another network served here already routes is refused: the nodes that route it get that as
 * their error (the rest of their config runs). Says whether anything failed.
 */
async function syncRoutingDomains(ctx, log) {
  let denied;
  try {
    denied = await syncDomains(ctx);
  } catch (error) {
    // Every node's error until it works: without its domain's link a node's egress does not run.
    for (const nodeId of heldNodeIds(ctx.dir)) {
      const record = loadNode(ctx.dir, nodeId);
      if (record) saveNode(ctx.dir, { ...record, error: `the network's routing domain could not be set up: ${error.message}` });
    }
    log(`the routing domains could not be set up: ${error.message}`);
    return true;
  }
  let failed = false;
  for (const nodeId of heldNodeIds(ctx.dir)) {
    const record = loadNode(ctx.dir, nodeId);
    const refused = egressOf(record?.config).filter((prefix) => (denied[record.networkId] ?? []).includes(prefix));
    if (!record || refused.length === 0) continue;
    record.error = `egress to ${refused.join(", ")} refused on this gateway: another network served here routes an overlapping destination`;
    saveNode(ctx.dir, record);
    log(`node ${nodeId}: ${record.error}`);
    failed = true;
  }
  return failed;
}

/** What the server wants of each node, for `wgo gateway status`. */
function desiredRevisions(body) {
  return Object.fromEntries(body.nodes.map((n) => [n.nodeId, { routing: (n.config ?? n.delta).routingRevision, dns: n.dns.revision }]));
}
