import type { Schema } from "../../../client/index.ts";
import { awaitingAgent } from "./awaiting";

/** What the first-run checklist reads: the network's nodes and policies (the group and network exist already). */
export interface FirstRunProps {
  network: Pick<Schema<"Network">, "id" | "groupId">;
  nodes: Pick<Schema<"Node">, "name" | "roles" | "publicKey">[];
  policyCount: number;
}

interface Step {
  label: string;
  done: boolean;
  href: string;
  /** What to do when this is the next step. */
  action: string;
}

/**
 * The path from an empty server to a device using a chain: group, network, gateway nodes, their agents, a
 * routing policy, a device. Each step says whether it is done (read from the API) and links to where it is
 * done; the first open one is marked as next. Hidden once every step is done.
 */
export function FirstRunChecklist({ network, nodes, policyCount }: FirstRunProps) {
  const base = `/networks/${network.id}`;
  const gateways = nodes.filter((node) => node.roles.includes("gateway"));
  const awaiting = awaitingAgent(nodes);
  const devices = nodes.filter((node) => !node.roles.includes("gateway"));
  const steps: Step[] = [
    { label: "Group", done: true, href: `/groups/${network.groupId}`, action: "Create a group" },
    { label: "Network", done: true, href: base, action: "Create a network" },
    {
      label: "Gateway nodes",
      done: gateways.length > 0,
      href: `${base}/nodes#add-node`,
      action: "Add a gateway node on an inventory gateway",
    },
    {
      label: awaiting.length > 0 ? `Gateway agents (awaiting: ${awaiting.join(", ")})` : "Gateway agents",
      done: gateways.length > 0 && awaiting.length === 0,
      href: `${base}/nodes`,
      action: "Enrol the agent on each gateway (wgo gateway enrol)",
    },
    {
      label: "Routing policy",
      done: policyCount > 0,
      href: `${base}/policies`,
      action: "Create a via-gateway policy through the gateways",
    },
    { label: "Device", done: devices.length > 0, href: `${base}/add-device`, action: "Add a device (a laptop with wgo, or a phone)" },
  ];
  const next = steps.find((step) => !step.done);
  if (!next) return null;
  return (
    <section aria-labelledby="first-run" class="card">
      <h2 id="first-run">Getting started</h2>
      <ol class="checklist">
        {steps.map((step) => (
          <li class={step.done ? "done" : step === next ? "next" : undefined}>
            <span class="state">{step.done ? "Done" : step === next ? "Next" : "To do"}:</span> {step.label}
            {step === next && (
              <>
                {" "}
                <a href={step.href}>{step.action}</a>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
