import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import type { FormError } from "../form";
import { CsrfField } from "../layout";
import type { ConsoleUser } from "../types";
import { NetworkFrame } from "./network-frame";
import { EndpointCandidates, PeerPaths } from "./node-paths";
import { RELAY_HINT, rolesOf } from "./node-roles";

export interface NodePageProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  node: Schema<"Node">;
  /** null: the API keeps them from this reader (another member's device node answers 404, as its config does). */
  paths: Schema<"NodePaths"> | null;
  error?: FormError;
  now?: number;
}

/** /networks/:id/nodes/:nodeId: the node, how it reaches each peer, and where the others are told to find it. */
export function NodePage({ user, csrfToken, network, canChange, node, paths, error, now = Date.now() }: NodePageProps) {
  const nodePage = (id: string) => `/networks/${network.id}/nodes/${id}`;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/nodes" heading={node.name} error={error}>
      <ul class="buttons">
        <li>
          <a href={`/networks/${network.id}/nodes`}>All nodes of {network.name}</a>
        </li>
        {!node.redacted && (
          <li>
            <a href={`${nodePage(node.id)}/config`} download>
              Download config<span class="visually-hidden"> of {node.name}</span>
            </a>
          </li>
        )}
      </ul>
      <dl class="card">
        <dt>Name</dt>
        <dd>{node.name}</dd>
        <dt>Address</dt>
        <dd>
          <code>{node.address}</code>
        </dd>
        <dt>Roles</dt>
        <dd>{rolesOf(node)}</dd>
        <dt>Endpoint</dt>
        <dd>{node.endpoint ? <code>{node.endpoint}</code> : paths ? "none set: learned from where it is seen (below)" : "none set"}</dd>
        <dt>Tags</dt>
        <dd>{node.tags.length > 0 ? <code>{node.tags.join(" ")}</code> : "none"}</dd>
        <dt>Last seen</dt>
        <dd>{node.redacted ? "not shown" : ago(node.lastSeenAt, now)}</dd>
      </dl>
      {canChange && node.roles.includes("gateway") && <RelayForm csrfToken={csrfToken} action={`${nodePage(node.id)}/relay`} node={node} />}
      {paths === null ? (
        <p class="notice">
          This is another member's device. How it reaches its peers is shown to its owner, the group's owners and admins, and platform
          admins, as its config is.
        </p>
      ) : (
        <>
          <section aria-labelledby="peer-paths">
            <h2 id="peer-paths">How it reaches its peers</h2>
            <PeerPaths node={node} items={paths.items} nodePage={nodePage} now={now} />
          </section>
          <section aria-labelledby="candidates">
            <h2 id="candidates">Where others are told to find it</h2>
            <EndpointCandidates node={node} candidates={paths.candidates} now={now} />
          </section>
        </>
      )}
    </NetworkFrame>
  );
}

/** A gateway node's relay role, switched in place (PATCH /nodes/:id relay). */
function RelayForm({ csrfToken, action, node }: { csrfToken: string; action: string; node: Schema<"Node"> }) {
  return (
    <form method="post" action={action} class="card">
      <CsrfField token={csrfToken} />
      <div>
        <input type="checkbox" id="relay" name="relay" value="on" checked={node.relay} aria-describedby="relay-help" />
        <label for="relay">Relay</label>
      </div>
      <p id="relay-help" class="help">
        {RELAY_HINT}.
      </p>
      <button type="submit" class="secondary">
        Save relay role
      </button>
    </form>
  );
}
