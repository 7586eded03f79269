import type { HeldNetwork } from "../memory/held-network";
import type { NodeRow } from "../../../db/rows";
import { isLanEndpoint } from "../../../core/net/public-host";
import type { NatRules } from "./rules";
import type { NatTracker, PathReport } from "./tracker";

/** The node columns that hold what the server learned of where it can be reached (docs/nat.md). */
export type CandidateColumns = Pick<NodeRow, "localEndpoints" | "publicHost" | "observedEndpoint" | "observedAt">;
export type CandidateChanges = Map<string, Partial<CandidateColumns>>;

/** WireGuard's own limit: a session older than this is dead, and so is what its endpoint said. */
export const HANDSHAKE_FRESH_MS = 180_000;
/** A new observed endpoint replaces one that reports confirmed this recently only when it is no longer seen. */
const OBSERVED_STICKY_MS = 60_000;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/** A heartbeat's own word: its LAN endpoints and the address it came from; null when nothing changed. */
export function ownCandidates(node: NodeRow, reported: string[] | undefined, publicHost: string | null): Partial<CandidateColumns> | null {
  const changes: Partial<CandidateColumns> = {};
  const local = reported?.filter(isLanEndpoint);
  if (local !== undefined && !sameList(local, node.localEndpoints)) changes.localEndpoints = local;
  if (publicHost !== null && publicHost !== node.publicHost) changes.publicHost = publicHost;
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * What a report says of its peers' endpoints after NAT. Only a reporter that names a public endpoint sees the
 * address a peer's NAT gives it towards the Internet; a laptop sees its LAN neighbours' private addresses. And only
 * a gateway node's (its agent's report): a device's heartbeat is written by its owner, who could otherwise tell the
 * network where every other node is (redirecting their handshakes) once an admin gives the device an endpoint. Only a
 * fresh handshake counts: WireGuard's endpoint is where the last authenticated packet came from. Two observers
 * that disagree (a NAT that gives each destination its own port) do not make the endpoint flap: the one held
 * stays while reports keep confirming it. The observer that taught it may move it at once, though: its NAT
 * mapping changed (a router rebooted, a flushed conntrack, a new port), and every peer should follow now.
 */
export function observedCandidates(held: HeldNetwork, tracker: NatTracker, report: PathReport, now: number, rules: NatRules) {
  const changes: CandidateChanges = new Map();
  const reporter = held.nodes.get(report.nodeId);
  // A device node may hold the gateway role (a server enrolled with wgo), but its heartbeat is still its owner's.
  if (!report.fromAgent || !reporter || reporter.endpoint === null || !reporter.isGateway) return changes;
  for (const peer of report.peers) {
    if (peer.endpoint === null || peer.handshakeAt === null || now - peer.handshakeAt > HANDSHAKE_FRESH_MS) continue;
    const node = held.nodeWithKey(peer.publicKey);
    if (!node || node.endpoint !== null) continue;
    if (peer.endpoint === node.observedEndpoint) {
      tracker.observedConfirmedAt.set(node.id, now);
      tracker.observedBy.set(node.id, reporter.id);
      // D1 keeps the time coarsely (expiry after a restart reads it): rewritten at half the TTL.
      const storedAt = node.observedAt ? Date.parse(node.observedAt) : 0;
      if (now - storedAt > rules.candidateTtlMs / 2) changes.set(node.id, { observedAt: new Date(now).toISOString() });
      continue;
    }
    const confirmedAt = tracker.observedConfirmedAt.get(node.id) ?? 0;
    const sameObserver = tracker.observedBy.get(node.id) === reporter.id;
    if (node.observedEndpoint !== null && !sameObserver && now - confirmedAt < OBSERVED_STICKY_MS) continue;
    tracker.observedConfirmedAt.set(node.id, now);
    tracker.observedBy.set(node.id, reporter.id);
    changes.set(node.id, { observedEndpoint: peer.endpoint, observedAt: new Date(now).toISOString() });
  }
  return changes;
}

/**
 * Candidates nobody confirmed for the TTL: an observed endpoint by its time; a node's own (LAN, source
 * address) when it has not reported for that long since this writer started (memory knows no earlier).
 */
export function expiredCandidates(held: HeldNetwork, tracker: NatTracker, now: number, rules: NatRules): CandidateChanges {
  const changes: CandidateChanges = new Map();
  for (const node of held.nodes.values()) {
    const change: Partial<CandidateColumns> = {};
    if (node.observedEndpoint !== null && node.observedAt !== null && now - Date.parse(node.observedAt) > rules.candidateTtlMs) {
      const confirmed = tracker.observedConfirmedAt.get(node.id) ?? 0;
      if (now - confirmed > rules.candidateTtlMs) Object.assign(change, { observedEndpoint: null, observedAt: null });
    }
    if (node.localEndpoints.length > 0 || node.publicHost !== null) {
      const heard = tracker.lastReportAt(node.id) ?? tracker.startedAt;
      if (now - heard > rules.candidateTtlMs) Object.assign(change, { localEndpoints: [], publicHost: null });
    }
    if (Object.keys(change).length > 0) changes.set(node.id, change);
  }
  return changes;
}

/** When the next candidate would expire if nobody confirms it (null: none held). */
export function nextExpiryAt(held: HeldNetwork, tracker: NatTracker, rules: NatRules): number | null {
  let next: number | null = null;
  const at = (time: number) => {
    if (next === null || time < next) next = time;
  };
  for (const node of held.nodes.values()) {
    if (node.observedAt !== null)
      at(Math.max(Date.parse(node.observedAt), tracker.observedConfirmedAt.get(node.id) ?? 0) + rules.candidateTtlMs);
    if (node.localEndpoints.length > 0 || node.publicHost !== null)
      at((tracker.lastReportAt(node.id) ?? tracker.startedAt) + rules.candidateTtlMs);
  }
  return next;
}

/** Whether a change moves what configs hand out (a refreshed time alone does not). */
export const changesEndpoints = (change: Partial<CandidateColumns>) =>
  change.localEndpoints !== undefined || change.publicHost !== undefined || change.observedEndpoint !== undefined;
