// "Who can reach this node and why": the API's access-sources answer for one node, each group of sources
// with its ports and the rules that decide them, as sentences a person checks against the rules table.
import type { Schema } from "../../../client/index.ts";
import type { Names } from "../humanize";
import { EmptyState } from "../layout";
import { ruleSentence } from "./access-tables";

export interface ReachProps {
  networkId: string;
  nodes: Schema<"Node">[];
  names: Names;
  rules: Schema<"AccessRule">[];
  /** The chosen node and the API's answer for it. */
  reach?: { nodeId: string; answer: Schema<"AccessSources"> };
}

export function WhoCanReach({ networkId, nodes, names, rules, reach }: ReachProps) {
  return (
    <section aria-labelledby="reach-heading">
      <h2 id="reach-heading">Who can reach a node, and why</h2>
      <form method="get" action={`/networks/${networkId}/access`} class="search">
        <label for="reach-node">Node</label>
        <select id="reach-node" name="node">
          {nodes.map((node) => (
            <option value={node.id} selected={node.id === reach?.nodeId}>
              {node.name} ({node.address})
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show who can reach it
        </button>
      </form>
      {reach && <ReachAnswer {...reach} names={names} rules={rules} />}
    </section>
  );
}

function ReachAnswer({
  nodeId,
  answer,
  names,
  rules,
}: {
  nodeId: string;
  answer: Schema<"AccessSources">;
  names: Names;
  rules: Schema<"AccessRule">[];
}) {
  const target = names.get(nodeId) ?? nodeId;
  if (answer.sources.length === 0)
    return (
      <EmptyState>
        No node may reach {target} (revision {answer.revision}).
      </EmptyState>
    );
  return (
    <table>
      <caption>
        Nodes that may reach {target}: {answer.nodesAllowed}
        {answer.truncated ? " (1,000 named)" : ""}, as revision {answer.revision} in {answer.mode} mode decides
      </caption>
      <thead>
        <tr>
          <th scope="col">Source</th>
          <th scope="col">Ports</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {answer.sources.map((group) => (
          <tr>
            <th scope="row">
              {group.nodeIds.map((id) => names.get(id) ?? id).join(", ")}
              {group.nodeCount > group.nodeIds.length && ` and ${group.nodeCount - group.nodeIds.length} more`}
            </th>
            <td>
              <code>{group.ports.join(", ")}</code>
            </td>
            <td>
              {answer.mode === "open" ? (
                "Open mode: every node reaches every node"
              ) : (
                <ul>
                  {group.allowedBy.map((i) => rules[i] && <li>Allowed by {ruleSentence(i, rules[i], names)}</li>)}
                  {group.deniedBy.map((i) => rules[i] && <li>Narrowed by {ruleSentence(i, rules[i], names)}</li>)}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
