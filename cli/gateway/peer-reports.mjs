// The gateway agent's reports with delta peer reports (cli/peer-report.mjs, docs/scale.md): per node,
// only the peers whose handshake or counters changed since the report the server last accepted, in
// pages; several nodes share a request while their pages fit the body limit. What the server accepted
// is kept per node in its state directory (it goes with the node), so a restart resumes with deltas.
// Each peer's tuple carries the endpoint the node's interface holds for it: seen from a gateway, that is the
// peer's address after its NAT, the candidate the server trusts most (docs/nat.md).
import { join } from "node:path";
import { ApiError } from "../errors.mjs";
import { readJson, writeSecretJson } from "../files.mjs";
import { apiExchange } from "../http.mjs";
import { interfaceExists } from "../interface.mjs";
import {
  BODY_LIMIT_BYTES,
  countersOf,
  emptyReportState,
  MAX_PAGES,
  accepted,
  nextPage,
  stateFromJson,
  stateToJson,
} from "../peer-report.mjs";
import { heartbeatPeers, parseWgDump } from "../system.mjs";
import { statePaths } from "./state.mjs";

/** The server takes at most 90 nodes a report (D1's bound parameters). */
const NODES_PER_REQUEST = 90;
/** What a request's nodes may take together, under the body limit with room for the envelope. */
const REQUEST_BUDGET_BYTES = BODY_LIMIT_BYTES - 2 * 1024;

const stateFile = (dir, nodeId) => join(statePaths.node(dir, nodeId), "peer-report.json");

/** A node's interface as `wg show dump` parses it; none when it is not up. */
export async function readInterface(sys, ifname) {
  if (!(await interfaceExists(sys, ifname))) return { peers: [] };
  return parseWgDump(await sys.check(["wg", "show", ifname, "dump"]));
}

/**
 * Sends `nodes` (each `{ nodeId, fields, dump }`: fields are the rest of its report, probes included)
 * with their peer reports, in as many requests and pages as it takes. Probes go only in a node's first
 * page: the server counts each report's probes. Returns the server's answers by node (the last page's).
 */
export async function sendNodeReports(ctx, nodes) {
  const pending = nodes.map((node) => ({
    ...node,
    current: countersOf(node.dump.peers, { endpoints: !ctx.natRefused }),
    state: stateFromJson(readJson(stateFile(ctx.dir, node.nodeId))),
    first: true,
    resyncs: 0,
  }));
  const answers = new Map();
  for (let round = 0; pending.length > 0 && round < MAX_PAGES; round++) {
    const requests = pack(pending.map((node) => ({ node, entry: entryOf(node) })));
    for (const batch of requests) await sendBatch(ctx, batch, answers);
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i].done) pending.splice(i, 1);
  }
  return answers;
}

function entryOf(node) {
  const page = nextPage(node.state, node.current);
  const { probes, ...fields } = node.fields;
  return { ...fields, ...(node.first && probes ? { probes } : {}), peerReport: page };
}

/** Nodes into requests: up to 90 a request, while their entries fit the budget together. */
function pack(items) {
  const requests = [];
  let batch = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item.entry).length + 1;
    if (batch.length > 0 && (bytes + size > REQUEST_BUDGET_BYTES || batch.length >= NODES_PER_REQUEST)) {
      requests.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) requests.push(batch);
  return requests;
}

async function sendBatch(ctx, batch, answers) {
  let body;
  try {
    ({ body } = await apiExchange({
      api: ctx.agent.api,
      path: "/agents/me/report",
      token: ctx.agent.credential,
      body: /** @satisfies {import("../api-types.js").AgentReportBody} */ ({
        nodes: batch.map((item) => item.entry),
      }),
    }));
  } catch (error) {
    if (refusesNatFields(error) && !ctx.natRefused) {
      // A server from before issue 28: no endpoints in the tuples from now on (this process; a restart asks again).
      ctx.natRefused = true;
      for (const item of batch) {
        item.node.current = countersOf(item.node.dump.peers, { endpoints: false });
        item.entry = entryOf(item.node);
      }
      return sendBatch(ctx, batch, answers);
    }
    if (!refusesPeerReport(error)) throw error;
    return sendLists(ctx, batch, answers);
  }
  const byNode = new Map((body?.nodes ?? []).map((answer) => [answer.nodeId, answer]));
  for (const { node, entry } of batch) {
    const answer = byNode.get(node.nodeId);
    answers.set(node.nodeId, answer);
    node.first = false;
    const ack = answer?.peerReport;
    if (!ack || ack.resync || typeof ack.seq !== "number") {
      // No base on the server: a full report next round (once; a second refusal waits for the next report).
      node.state = emptyReportState();
      node.resyncs += 1;
      node.done = !ack || node.resyncs > 1;
    } else {
      node.state = accepted(node.state, entry.peerReport, ack.seq);
      node.done = !entry.peerReport.more;
    }
    writeSecretJson(stateFile(ctx.dir, node.nodeId), stateToJson(node.state));
  }
}

/** A server from before peer reports refuses the field (422): the old form, every peer, as before. */
async function sendLists(ctx, batch, answers) {
  // A server that refuses peerReport predates endpoints too.
  const nodes = batch.map(({ node }) => ({ ...node.fields, peers: heartbeatPeers(node.dump, { endpoints: false }) }));
  const { body } = await apiExchange({
    api: ctx.agent.api,
    path: "/agents/me/report",
    token: ctx.agent.credential,
    body: /** @satisfies {import("../api-types.js").RequestBody<"/agents/me/report", "post">} */ ({ nodes }),
  });
  for (const answer of body?.nodes ?? []) answers.set(answer.nodeId, answer);
  for (const { node } of batch) {
    node.done = true;
    writeSecretJson(stateFile(ctx.dir, node.nodeId), stateToJson(emptyReportState()));
  }
}

const refusesPeerReport = (error) =>
  error instanceof ApiError &&
  error.status === 422 &&
  error.fields.some((field) => /^nodes\.\d+\.peerReport$/.test(field.path) && field.message === "Unknown field");

/** A server from before issue 28 (the paths as in cli/commands/heartbeat-report.mjs). */
const refusesNatFields = (error) =>
  error instanceof ApiError &&
  error.status === 422 &&
  error.fields.some((field) => /^nodes\.\d+\.(localEndpoints|peerReport\.changed\.\d+|peers\.\d+\.endpoint)$/.test(field.path));
