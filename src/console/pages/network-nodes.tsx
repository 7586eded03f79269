import type { Schema } from "../../../client/index.ts";
import { CsrfField, EmptyState } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage, PostButton } from "../parts";
import type { FormError } from "../form";
import type { GatewayChoice } from "../routes/gateway-choices";
import type { ConsoleUser } from "../types";
import { awaitingAgent } from "./awaiting";
import { NodeAdded, type NodeAddedProps } from "./node-added";
import { AddNodeForm } from "./node-form";
import { rolesOf } from "./node-roles";
import { NodeTags } from "./node-tags";
import { NetworkFrame, shortKey, when } from "./network-frame";

export interface NodesProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  nodes: Schema<"Node">[];
  nextCursor: string | null;
  /** The gateways the form offers (gateway-choices.ts; loaded only when the form is offered). */
  gateways: GatewayChoice[];
  platformAdmin: boolean;
  /** The node just added (after the create's redirect), with what it needs next. */
  added?: Omit<NodeAddedProps, "csrfToken" | "networkId" | "platformAdmin">;
  error?: FormError;
  values?: Record<string, string>;
  /** The words searched (`?q=`) and how many nodes were read to find the matches. */
  search?: { q?: string; searched: number };
}

export function NetworkNodesPage(props: NodesProps) {
  const { user, csrfToken, network, canChange, nodes, nextCursor, error, added, platformAdmin, search = { searched: 0 } } = props;
  const base = `/networks/${network.id}/nodes`;
  const { q } = search;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/nodes" error={error}>
      {added && <NodeAdded {...added} csrfToken={csrfToken} networkId={network.id} platformAdmin={platformAdmin} />}
      <AwaitingNotice nodes={nodes} tokens={canChange && platformAdmin ? { base, csrfToken } : undefined} />
      <SearchBox path={base} label="Search nodes by name or address" q={q} />
      <SearchResult q={q} shown={nodes.length} searched={search.searched} more={nextCursor !== null} />
      {nodes.length === 0 && q ? null : nodes.length === 0 ? (
        <EmptyState>
          No nodes yet.{" "}
          {canChange ? "Add the first one below, or enrol a device with wgo." : "Ask an owner or admin of the group to add one."}
        </EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Nodes of {network.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Public key</th>
              <th scope="col">Roles</th>
              <th scope="col">Tags</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Last seen</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => (
              <tr>
                <th scope="row">
                  <a href={`${base}/${node.id}`}>{node.name}</a>
                </th>
                <td>
                  <code>{node.address}</code>
                </td>
                <td>
                  <code title={node.publicKey ?? undefined}>{shortKey(node.publicKey)}</code>
                </td>
                <td>{rolesOf(node)}</td>
                <td>
                  <NodeTags {...{ node, canChange, csrfToken, base, error }} />
                </td>
                <td>{canChange ? <EndpointForm {...{ csrfToken, base, node }} /> : <code>{node.endpoint ?? "none"}</code>}</td>
                <td>{node.redacted ? "not shown" : when(node.lastSeenAt)}</td>
                <td>
                  {!node.redacted && (
                    <a href={`${base}/${node.id}/config`} download>
                      Download config<span class="visually-hidden"> of {node.name}</span>
                    </a>
                  )}
                  {canChange && (
                    <form method="post" action={`${base}/${node.id}/delete`}>
                      <CsrfField token={csrfToken} />
                      <button type="submit" class="danger">
                        Delete<span class="visually-hidden"> {node.name}</span>
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path={base} query={{ q }} cursor={nextCursor} />
      {canChange && <AddNodeForm {...props} error={props.values ? error : undefined} />}
    </NetworkFrame>
  );
}

function EndpointForm({ csrfToken, base, node }: { csrfToken: string; base: string; node: Schema<"Node"> }) {
  const id = `endpoint-${node.id}`;
  return (
    <form method="post" action={`${base}/${node.id}/endpoint`}>
      <CsrfField token={csrfToken} />
      <label for={id} class="visually-hidden">
        Endpoint of {node.name}
      </label>
      <input id={id} name="endpoint" value={node.endpoint ?? ""} placeholder="host:port or empty" />
      <button type="submit" class="secondary">
        Save endpoint<span class="visually-hidden"> of {node.name}</span>
      </button>
    </form>
  );
}

/**
 * Why a config downloaded now lacks peers and routes: gateway nodes still waiting for their agent's key. For a
 * platform admin, a token button per such node: the way back to its enrol command once the page that followed
 * its creation is gone (the checklist's "Gateway agents" step links here).
 */
function AwaitingNotice({ nodes, tokens }: { nodes: Schema<"Node">[]; tokens?: { base: string; csrfToken: string } }) {
  const awaiting = awaitingAgent(nodes);
  if (awaiting.length === 0) return null;
  const waiting = nodes.filter((node) => awaiting.includes(node.name));
  return (
    <div class="notice">
      <p>
        Awaiting their gateway agent: {awaiting.join(", ")}. Until an agent registers a node's key, the configs downloaded here leave that
        node out, with the routes of policies through it. Enrol the agent (<code>wgo gateway enrol</code>), then download again.
      </p>
      {tokens &&
        waiting.map((node) => (
          <PostButton
            action={`${tokens.base}/${node.id}/agent-token`}
            csrfToken={tokens.csrfToken}
            label={`Issue agent enrolment token for ${node.name}`}
          />
        ))}
    </div>
  );
}
