import type { Schema } from "../../../client/index.ts";
import { EmptyState } from "../layout";

export interface IntentProps {
  networkId: string;
  nodes: Schema<"Node">[];
  /** The chosen node, and its config's routingIntent (GET /nodes/:id/config). */
  chosen?: { node: Schema<"Node">; intent: Schema<"RoutingIntent">[] };
  names: Map<string, string>;
}

/** What one node does for each policy: its place on the path (source, transit, egress) and where it sends. */
export function RoutingIntent({ networkId, nodes, chosen, names }: IntentProps) {
  const name = (id: string | null) => (id === null ? "none" : (names.get(id) ?? id));
  return (
    <section aria-labelledby="intent-heading">
      <h2 id="intent-heading">Routing intent of a node</h2>
      {nodes.length === 0 ? (
        <EmptyState>No nodes yet: a node's routing intent shows here once it exists.</EmptyState>
      ) : (
        <form method="get" action={`/networks/${networkId}/policies`} class="card">
          <label for="intent-node">Node</label>
          <select id="intent-node" name="node">
            {nodes.map((node) => (
              <option value={node.id} selected={chosen?.node.id === node.id}>
                {node.name}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show routing intent
          </button>
        </form>
      )}
      {chosen &&
        (chosen.intent.length === 0 ? (
          <EmptyState>No policy routes through {chosen.node.name}: it sends only to its peers' addresses.</EmptyState>
        ) : (
          <table>
            <caption>Routing intent of {chosen.node.name}</caption>
            <thead>
              <tr>
                <th scope="col">Policy</th>
                <th scope="col">Destination</th>
                <th scope="col">Role</th>
                <th scope="col">Previous hop</th>
                <th scope="col">Next hop</th>
              </tr>
            </thead>
            <tbody>
              {chosen.intent.map((entry) => (
                <tr>
                  <td>{entry.name}</td>
                  <td>
                    <code>{entry.destinationCidr}</code>
                  </td>
                  <td>{entry.role}</td>
                  <td>{name(entry.previousHop)}</td>
                  <td>{name(entry.nextHop)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
