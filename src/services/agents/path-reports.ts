import type { Env } from "../../lib/env";
import { describeForLog } from "../../lib/log";
import { unwrap } from "../../lib/write-result";
import type { PathReport } from "../networks/operations/nat-paths";
import { networkWriter } from "../networks/writer/network-writer";

interface Reported {
  nodeId: string;
  networkId: string;
  /** The reporter's configured endpoint: only a public reporter sees its peers' addresses after NAT. */
  endpoint: string | null;
  appliedRoutingRevision: number;
  /** Its peers as paths need them (operations/nat-paths.ts pathPeersOf). */
  peers: PathReport["peers"];
}

/**
 * What gateways saw of their peers' endpoints (docs/nat.md) goes to each network's writer, which learns the
 * endpoints after NAT from them. Only reports of public gateways that carry an endpoint cost a call; a writer
 * that fails to take them loses nothing stored (the tunnel rows are written already) and learns at the next one.
 */
export async function sendPathReports(env: Env, reported: Reported[]) {
  const byNetwork = new Map<string, PathReport[]>();
  for (const report of reported) {
    if (report.endpoint === null || !report.peers.some((peer) => peer.endpoint)) continue;
    const list = byNetwork.get(report.networkId) ?? [];
    list.push({
      nodeId: report.nodeId,
      appliedRevision: report.appliedRoutingRevision,
      fromAgent: true,
      peers: report.peers,
    });
    byNetwork.set(report.networkId, list);
  }
  await Promise.all(
    [...byNetwork].map(([networkId, reports]) =>
      unwrap(networkWriter(env, networkId).observePaths(networkId, reports)).catch((error: unknown) =>
        console.error(JSON.stringify({ background: "path-reports", networkId, ...describeForLog(error) })),
      ),
    ),
  );
}
