// Delta peer reports (docs/scale.md "Peer reports"), shared by `wgo heartbeat` and the gateway agent's
// reporter. A device of a 10,000-node network has 9,999 peers; their counters do not fit a 64 KiB body,
// and most never carry anything. So a report holds only the peers whose handshake or counters changed
// since the report the server last accepted (its `seq`), as compact tuples, in pages when it does not
// fit one body; the server answers each page's seq, or `resync` when it holds no such base, and then a
// full report (base null) starts over. Peers that never handshook and carried no bytes are never sent.
// A tuple's 5th element is the endpoint WireGuard holds for the peer, as `wg show dump` prints it (docs/nat.md:
// a gateway's view of it is the peer's address after NAT); a new endpoint makes the peer changed.
// Pure functions: no I/O here, so the workers tests can drive the real Worker with what wgo sends.

/** The server's limit on a request body (src/middleware/body-limit.ts). */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** What one page's lists may take, leaving room for the rest of the body (revisions, endpoint, probes). */
export const PAGE_BUDGET_BYTES = 56 * 1024;
/** The server's cap on each list of a page (src/wire/heartbeat.ts PEER_REPORT_MAX). */
const PAGE_MAX_ENTRIES = 1000;
/** A report longer than this many pages is cut short: the next beat continues from what was accepted. */
export const MAX_PAGES = 40;

/** @typedef {[number, number, number, string?]} Counters [handshake in Unix seconds (0: never), rxBytes, txBytes, endpoint (none: omitted)] */
/** @typedef {{ seq: number | null, held: Map<string, Counters> }} PeerReportState what the server holds, as far as we know */
/** @typedef {{ base: number | null, changed: Array<[string, number, number, number, string?]>, removed: string[], more: boolean }} PeerReportPage */

/** No base: the next report is a full one. */
export const emptyReportState = () => ({ seq: null, held: new Map() });

/** The state as a file holds it (JSON: the held counters as an object), and back; anything unreadable is no base. */
export const stateToJson = (state) => ({ seq: state.seq, held: Object.fromEntries(state.held) });
export function stateFromJson(json) {
  if (!json || typeof json.seq !== "number" || typeof json.held !== "object" || json.held === null) return emptyReportState();
  return { seq: json.seq, held: new Map(Object.entries(json.held)) };
}

/**
 * The peers of a parsed `wg show dump` worth a row: those with a handshake or bytes, with their endpoint
 * unless `endpoints` is false (a server from before issue 28 refuses the 5th element).
 * @param {Array<{ publicKey: string, latestHandshake?: number, rxBytes?: number, txBytes?: number, endpoint?: string | null }>} dumpPeers
 */
export function countersOf(dumpPeers, { endpoints = true } = {}) {
  /** @type {Map<string, Counters>} */
  const current = new Map();
  for (const peer of dumpPeers) {
    /** @type {Counters} */
    const counters = [peer.latestHandshake || 0, peer.rxBytes || 0, peer.txBytes || 0];
    if (!(counters[0] > 0 || counters[1] > 0 || counters[2] > 0)) continue;
    if (endpoints && reportable(peer.endpoint)) counters.push(peer.endpoint);
    current.set(peer.publicKey, counters);
  }
  return current;
}

/**
 * An endpoint as the server takes it: a literal IPv4 or bracketed IPv6 address and a port. wg prints a
 * link-local IPv6 peer with its scope (`[fe80::1%eth0]:51820`), which means nothing on another machine.
 */
const reportable = (endpoint) => typeof endpoint === "string" && /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/.test(endpoint);

const same = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * The next page against what the server holds: changed peers first, then removed ones, until the byte
 * budget or the list cap is reached; `more` when something is left for the next page.
 * @param {PeerReportState} state @param {Map<string, Counters>} current
 * @returns {PeerReportPage}
 */
export function nextPage(state, current, budget = PAGE_BUDGET_BYTES) {
  const changed = [];
  const removed = [];
  let bytes = 0;
  let more = false;
  for (const [key, counters] of current) {
    const held = state.held.get(key);
    if (held && same(held, counters)) continue;
    /** @type {[string, number, number, number, string?]} */
    const entry = [key, ...counters];
    const size = JSON.stringify(entry).length + 1;
    if (bytes + size > budget || changed.length >= PAGE_MAX_ENTRIES) {
      more = true;
      break;
    }
    changed.push(entry);
    bytes += size;
  }
  for (const key of state.held.keys()) {
    if (more) break;
    if (current.has(key)) continue;
    const size = key.length + 3;
    if (bytes + size > budget || removed.length >= PAGE_MAX_ENTRIES) {
      more = true;
      break;
    }
    removed.push(key);
    bytes += size;
  }
  return { base: state.seq, changed, removed, more };
}

/**
 * What the server holds once it accepted `page` with `seq`. Updates `state.held` in place (a full
 * report's pages would otherwise copy thousands of keys each); reportPeers works on its own copy.
 * @param {PeerReportState} state @param {PeerReportPage} page @returns {PeerReportState}
 */
export function accepted(state, page, seq) {
  const held = page.base === null ? new Map() : state.held;
  for (const [key, ...counters] of page.changed) held.set(key, counters);
  for (const key of page.removed) held.delete(key);
  return { seq, held };
}

/**
 * Sends pages until nothing is left: `send(page)` delivers one and resolves to the server's answer for
 * it (`{ seq, resync }`). A resync starts a full report once; a second one in the same report stops it
 * (the next beat tries again). Returns the state to keep and what was sent.
 * @param {PeerReportState} state @param {Map<string, Counters>} current
 * @param {(page: PeerReportPage) => Promise<{ seq: number | null, resync: boolean } | undefined>} send
 */
export async function reportPeers(state, current, send) {
  let held = state.seq === null ? emptyReportState() : { seq: state.seq, held: new Map(state.held) };
  let resynced = false;
  const pages = [];
  while (pages.length < MAX_PAGES) {
    const page = nextPage(held, current);
    pages.push(page);
    const answer = await send(page);
    if (!answer || answer.resync || typeof answer.seq !== "number") {
      held = emptyReportState();
      if (resynced || !answer) break;
      resynced = true;
      continue;
    }
    held = accepted(held, page, answer.seq);
    if (!page.more) break;
  }
  return { state: held, pages, resynced };
}
