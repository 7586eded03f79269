import type { Schema } from "../../../client/index.ts";
import { ago, bytes } from "../format";
import { EmptyState, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage } from "../parts";
import { pairTunnels } from "../tunnel-pairs";
import type { ConsoleUser } from "../types";

export interface TunnelsProps {
  user: ConsoleUser;
  csrfToken: string;
  tunnels: Schema<"Tunnel">[];
  nextCursor: string | null;
  networks: Schema<"Network">[];
  /** The network filter in force, if any. */
  networkId?: string;
  nodeNames: Map<string, string>;
  /** The words searched (`?q=`) and how many tunnels were read to find these. */
  search?: { q: string; searched: number };
}

const STATE_CLASS = { up: "status-ok", stale: "status-warn", down: "status-bad" } as const;

/** Tunnels as the nodes report them (heartbeats, agents): handshake age and traffic, per network. */
export function TunnelsPage({ user, csrfToken, tunnels, nextCursor, networks, networkId, nodeNames, search }: TunnelsProps) {
  const networkNames = new Map(networks.map((network) => [network.id, network.name]));
  const nodeName = (id: string | null, key: string) => (id ? (nodeNames.get(id) ?? id) : `unknown peer ${key.slice(0, 8)}…`);
  return (
    <Page title="Tunnels" user={user} csrfToken={csrfToken} section="/tunnels">
      <form method="get" action="/tunnels" class="card" aria-label="Filter tunnels">
        <label for="tunnel-network">Network</label>
        <select id="tunnel-network" name="network">
          <option value="">All networks</option>
          {networks.map((network) => (
            <option value={network.id} selected={network.id === networkId}>
              {network.name}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show tunnels
        </button>
      </form>
      <SearchBox path="/tunnels" label="Search tunnels by node or network name" q={search?.q} keep={{ network: networkId }} />
      {search && <SearchResult q={search.q} shown={tunnels.length} searched={search.searched} more={nextCursor !== null} />}
      {tunnels.length === 0 && search ? (
        <EmptyState>No tunnel matches “{search.q}”.</EmptyState>
      ) : tunnels.length === 0 ? (
        <EmptyState>
          No tunnels reported{networkId ? " in this network" : ""} yet. Tunnels appear once devices send heartbeats (wgo heartbeat) or
          gateway agents report.
        </EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Observed tunnels</caption>
          <thead>
            <tr>
              <th scope="col">Between</th>
              <th scope="col">Network</th>
              <th scope="col">State</th>
              <th scope="col">Last handshake</th>
              <th scope="col">Received</th>
              <th scope="col">Sent</th>
              <th scope="col">Freshest report</th>
            </tr>
          </thead>
          <tbody>
            {pairTunnels(tunnels).map(({ reporter: tunnel, other }) => {
              const from = nodeName(tunnel.fromNodeId, "");
              return (
                <tr>
                  <th scope="row">
                    {from} and {nodeName(tunnel.toNodeId, tunnel.peerPublicKey)}
                  </th>
                  <td>{networkNames.get(tunnel.networkId) ?? "—"}</td>
                  <td class={STATE_CLASS[tunnel.state]}>{tunnel.state}</td>
                  <td>{ago(tunnel.lastHandshakeAt)}</td>
                  <td>{bytes(tunnel.rxBytes)}</td>
                  <td>{bytes(tunnel.txBytes)}</td>
                  <td>
                    {ago(tunnel.reportedAt)}, by {from}
                    {other && <span class="help"> (its other end's report: {ago(other.reportedAt)})</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <NextPage path="/tunnels" query={{ network: networkId, q: search?.q }} cursor={nextCursor} />
    </Page>
  );
}
