// A node's paths across NAT (GET /nodes/:id/paths, docs/nat.md) in a person's words: how it reaches each peer,
// and where the other nodes are told to find it.
import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { EmptyState } from "../layout";

type PeerPath = Schema<"PeerPath">;
type Candidate = Schema<"EndpointCandidate">;

/** The API lists every peer; a page holds this many rows and says how many more there are (no search here yet). */
export const MAX_PATH_ROWS = 200;

/** Where a candidate comes from, as its source means it (the API's enum is for programs). */
export const CANDIDATE_SOURCE_WORDS: Record<Candidate["source"], string> = {
  configured: "set on the node",
  observed: "seen by a gateway (after NAT)",
  local: "on its LAN",
  public: "its heartbeats' address",
};

const PATH_CLASS = { direct: "status-ok", relay: "status-warn", unknown: undefined } as const;

/** "Direct", "Through relay-1" (the relay linked to its page), "Not yet known". */
function PathWords({ item, nodePage }: { item: PeerPath; nodePage: (id: string) => string }) {
  if (item.path === "direct") return <>Direct</>;
  if (item.path === "relay" && item.via)
    return (
      <>
        Through <a href={nodePage(item.via.nodeId)}>{item.via.name}</a>
      </>
    );
  return <>Not yet known</>;
}

export interface PeerPathsProps {
  node: Schema<"Node">;
  items: PeerPath[];
  /** The link to a node of the same network. */
  nodePage: (id: string) => string;
  now?: number;
}

/** One row per peer: its name (linked), the path, where this node hears it, and the last handshake. */
export function PeerPaths({ node, items, nodePage, now = Date.now() }: PeerPathsProps) {
  if (items.length === 0)
    return (
      <EmptyState>
        {node.publicKey === null
          ? "No peers yet: this gateway node awaits its agent's key, and no node has it as a peer until the agent registers it."
          : "No peers: no other node is in its config (it is the only node of the network, or the access policy lets it reach none)."}
      </EmptyState>
    );
  const shown = items.slice(0, MAX_PATH_ROWS);
  return (
    <>
      <table>
        <caption class="visually-hidden">How {node.name} reaches each peer</caption>
        <thead>
          <tr>
            <th scope="col">Peer</th>
            <th scope="col">Path</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Last handshake</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((item) => (
            <tr>
              <th scope="row">
                <a href={nodePage(item.peerNodeId)}>{item.peerName}</a>
              </th>
              <td class={PATH_CLASS[item.path]}>
                <PathWords item={item} nodePage={nodePage} />
              </td>
              <td>{item.endpoint ? <code>{item.endpoint}</code> : "none known"}</td>
              <td>{ago(item.lastHandshakeAt, now)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length > shown.length && (
        <p class="help">
          Showing the first {shown.length} of {items.length} peers ({items.length - shown.length} more not shown).
        </p>
      )}
    </>
  );
}

/** Where the other nodes are told to find this one, best first as the API orders them. */
export function EndpointCandidates({
  node,
  candidates,
  now = Date.now(),
}: {
  node: Schema<"Node">;
  candidates: Candidate[];
  now?: number;
}) {
  if (candidates.length === 0)
    return <EmptyState>Nothing learned yet: candidates come from its heartbeats and from gateways that see it.</EmptyState>;
  return (
    <>
      {node.endpoint !== null && (
        <p class="help">This node names its own endpoint, so every peer is told that one whatever else is learned.</p>
      )}
      <table>
        <caption class="visually-hidden">Where other nodes are told to find {node.name}</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Where it comes from</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((candidate) => (
            <tr>
              <td>
                <code>{candidate.endpoint}</code>
              </td>
              <td>{CANDIDATE_SOURCE_WORDS[candidate.source]}</td>
              <td>{candidate.seenAt ? ago(candidate.seenAt, now) : "not dated"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
