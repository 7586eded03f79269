import type { Env } from "../../lib/env";
import { unwrap } from "../../lib/write-result";
import { networkWriter, type ReceivedAgentReport } from "../../objects/network/client";
import type { PeerReportAnswer } from "../../wire/heartbeat";

/**
 * What an agent's report says of its nodes and their tunnels goes to each network's writer (one call a
 * network): the writer keeps it in its hot state (objects/network/hot/), admits each delta against the
 * sequence it holds, and learns endpoints after NAT from public gateways' peers (docs/nat.md). Answers, by
 * node id, each node's delta and when the node was heard before this report.
 */
export async function sendTunnelReports(env: Env, reports: { networkId: string; received: ReceivedAgentReport }[]) {
  const byNetwork = new Map<string, ReceivedAgentReport[]>();
  for (const { networkId, received } of reports) byNetwork.set(networkId, [...(byNetwork.get(networkId) ?? []), received]);
  const answered = await Promise.all(
    [...byNetwork].map(([networkId, list]) => unwrap(networkWriter(env, networkId).recordAgentReports(networkId, list))),
  );
  return new Map<string, { peerReport: PeerReportAnswer; seenBefore: string | null }>(
    answered.flat().map((answer) => [answer.nodeId, answer]),
  );
}
