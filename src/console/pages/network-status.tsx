import type { Schema } from "../../../client/index.ts";
import { EmptyState } from "../layout";
import { ago } from "../format";
import type { PeerSeen } from "../peer-seen";
import type { ConsoleUser } from "../types";
import { NetworkFrame, when } from "./network-frame";
import { dnsSyncOf, type NodeSync, routingSyncOf, syncClass } from "./node-sync";

export interface StatusProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  status: Schema<"RuntimeStatus">;
  nodes: Schema<"Node">[];
  /** When the console read the status (ISO 8601). */
  readAt: string;
  /** Device nodes without heartbeats (a WireGuard app), as their peers report them, by node id. */
  peerSeen?: Map<string, PeerSeen>;
}

const Sync = ({ sync }: { sync: NodeSync }) => (
  <>
    <span class={syncClass(sync)}>{sync.state}</span>
    {sync.detail && <span>: {sync.detail}</span>}
  </>
);

const applied = (revision: number | null, reporters: string) =>
  revision === null ? `not every ${reporters} has reported` : `revision ${revision}`;

export function NetworkStatusPage({ user, csrfToken, network, status, nodes, readAt, peerSeen = new Map() }: StatusProps) {
  const names = new Map(nodes.map((node) => [node.id, node.name]));
  const lastSeen = (node: Schema<"Node">) => {
    const seen = node.lastSeenAt === null ? peerSeen.get(node.id) : undefined;
    if (!seen) return when(node.lastSeenAt);
    return `handshake ${ago(seen.lastHandshakeAt)}, as ${names.get(seen.byNodeId) ?? "a peer"} reports (no heartbeats: a config file)`;
  };
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/status">
      <p>
        Read at <time datetime={readAt}>{when(readAt)}</time>.{" "}
        <a class="button secondary" href={`/networks/${network.id}/status`}>
          Refresh
        </a>
      </p>
      <table>
        <caption>Desired and applied revisions of {network.name}</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col">Desired</th>
            <th scope="col">Applied (oldest running)</th>
            <th scope="col">In sync</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Routing</th>
            <td>revision {status.routing.desiredRevision}</td>
            <td>{applied(status.routing.appliedRevision, "node")}</td>
            <td class={status.routing.inSync ? "status-ok" : "status-warn"}>{status.routing.inSync ? "yes" : "no"}</td>
          </tr>
          <tr>
            <th scope="row">DNS</th>
            <td>revision {status.dns.desiredRevision}</td>
            <td>
              {nodes.some((node) => node.roles.includes("gateway"))
                ? applied(status.dns.appliedRevision, "gateway node")
                : "no gateway node serves the zone yet"}
            </td>
            <td class={status.dns.inSync ? "status-ok" : "status-warn"}>{status.dns.inSync ? "yes" : "no"}</td>
          </tr>
        </tbody>
      </table>
      {nodes.length === 0 ? (
        <EmptyState>No nodes yet: add one on the Nodes page, or enrol a device with wgo; it reports here once it runs.</EmptyState>
      ) : (
        <table>
          <caption>Each node: desired versus applied</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Routing</th>
              <th scope="col">DNS</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => (
              <tr data-node={node.id}>
                <th scope="row">{node.name}</th>
                <td>
                  <Sync sync={routingSyncOf(status, node)} />
                </td>
                <td>
                  <Sync sync={dnsSyncOf(status, node)} />
                </td>
                <td>{node.redacted ? "not shown" : lastSeen(node)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </NetworkFrame>
  );
}
