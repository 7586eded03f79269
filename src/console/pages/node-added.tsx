import type { Schema } from "../../../client/index.ts";
import { PostButton } from "../parts";

/** A node just added, and for a gateway node what has to happen before it carries traffic. */
export interface NodeAddedProps {
  csrfToken: string;
  networkId: string;
  node: Schema<"Node">;
  /** The inventory gateway the node runs on, and whether an active agent already serves it. */
  gateway?: { name: string; hasAgent: boolean };
  platformAdmin: boolean;
  /** The console's own origin: the API the agent enrols with. */
  origin: string;
  /** An agent enrolment token just issued for the node's gateway (shown in this answer only). */
  token?: string;
}

export function NodeAdded(props: NodeAddedProps) {
  const { node, gateway } = props;
  const awaiting = node.roles.includes("gateway") && !node.publicKey;
  return (
    <section class="notice success" role="status" aria-labelledby="node-added">
      <h2 id="node-added">Added {node.name}</h2>
      <p>
        Address <code>{node.address}</code>.{!awaiting && " Its config is ready to download below."}
      </p>
      {awaiting && gateway?.hasAgent && (
        <p>
          The agent of {gateway.name} is enrolled: it makes this node's key on its next round. Until then other nodes' configs leave{" "}
          {node.name} out.
        </p>
      )}
      {awaiting && !gateway?.hasAgent && <EnrolSteps {...props} gatewayName={gateway?.name ?? "its gateway"} />}
    </section>
  );
}

function EnrolSteps({ csrfToken, networkId, node, platformAdmin, origin, token, gatewayName }: NodeAddedProps & { gatewayName: string }) {
  return (
    <>
      <p>
        <strong>Next: enrol the agent on {gatewayName}.</strong> The agent makes this node's key; until it has, other nodes' configs leave{" "}
        {node.name} out and policies through it carry no traffic.
      </p>
      <ol>
        <li>
          {token ? (
            <>An enrolment token for {gatewayName} is in the command below. Copy it now: it is shown only this once, and used once.</>
          ) : platformAdmin ? (
            <>
              Issue a single-use enrolment token for {gatewayName}:
              <PostButton
                action={`/networks/${networkId}/nodes/${node.id}/agent-token`}
                csrfToken={csrfToken}
                label="Issue agent enrolment token"
              />
            </>
          ) : (
            <>Ask a platform admin for a gateway-daemon enrolment token for {gatewayName}.</>
          )}
        </li>
        <li>
          On the gateway machine, as root:
          <pre class="command">
            <code id="enrol-command">{`wgo gateway enrol --api ${origin} --token ${token ?? "aet_…"}`}</code>
          </pre>
          <button type="button" class="secondary" data-copy="enrol-command">
            Copy enrol command
          </button>
        </li>
        <li>
          Keep the agent running as a systemd service:
          <pre class="command">
            <code id="service-command">wgo install-service --gateway</code>
          </pre>
          <button type="button" class="secondary" data-copy="service-command">
            Copy service command
          </button>
          {/* install-service needs systemd; elsewhere (a container, another service manager) the agent is this one process. */}
          <p>Or, without systemd, run the agent in the foreground (or under your own service manager):</p>
          <pre class="command">
            <code id="run-command">wgo gateway run</code>
          </pre>
          <button type="button" class="secondary" data-copy="run-command">
            Copy run command
          </button>
        </li>
      </ol>
    </>
  );
}
