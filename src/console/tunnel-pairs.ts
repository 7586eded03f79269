import type { Schema } from "../../client/index.ts";

type Tunnel = Schema<"Tunnel">;

/** One tunnel between two nodes: both ends may report it; the freshest report is the one shown. */
export interface TunnelPair {
  /** The end whose report is shown, and the other end (its node, or its key when no node of the network has it). */
  reporter: Tunnel;
  /** The other end's report of the same tunnel, when it sent one. */
  other?: Tunnel;
}

const pairKey = (tunnel: Tunnel) => {
  const ends = [tunnel.fromNodeId, tunnel.toNodeId ?? `key:${tunnel.peerPublicKey}`].sort();
  return `${tunnel.networkId} ${ends.join(" ")}`;
};

/** The later of two ISO timestamps' owners (a report read later is the fresher figure). */
const fresher = (a: Tunnel, b: Tunnel) => (Date.parse(b.reportedAt) > Date.parse(a.reportedAt) ? b : a);

/**
 * The tunnels read, one row per pair of nodes (issue 47): a device's report and its gateway's report of the same
 * tunnel are one tunnel, shown with the freshest report's figures and age (a device that stopped beating leaves an
 * old report beside the gateway's live one). In the order the first end of each pair was read.
 */
export function pairTunnels(tunnels: Tunnel[]): TunnelPair[] {
  const pairs = new Map<string, Tunnel[]>();
  for (const tunnel of tunnels) {
    const key = pairKey(tunnel);
    pairs.set(key, [...(pairs.get(key) ?? []), tunnel]);
  }
  return [...pairs.values()].map((reports) => {
    const reporter = reports.reduce(fresher);
    const other = reports.find((report) => report !== reporter);
    return other ? { reporter, other } : { reporter };
  });
}
