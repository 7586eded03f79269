import type { Schema } from "../../../client/index.ts";
import type { FormError } from "../form";
import type { Names } from "../humanize";
import { CsrfField } from "../layout";
import { Success } from "../parts";
import type { ConsoleUser } from "../types";
import { PolicyEditor } from "./access-editor";
import { type ReachProps, WhoCanReach } from "./access-reach";
import { RulesTable, TestsTable } from "./access-tables";
import { NetworkFrame, when } from "./network-frame";

export interface AccessPageProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  policy: Schema<"AccessPolicy">;
  /** The stored tests that fail against the nodes as they are now, by index, with the API's sentence. */
  failing: ReadonlyMap<number, string>;
  names: Names;
  nodes: Schema<"Node">[];
  reach?: ReachProps["reach"];
  /** The editor's text: the document in force, or what was typed when a preview or apply was refused. */
  text: string;
  /** The revision the editor's text was read at (If-Match on Apply). */
  baseRevision: number;
  applied?: string;
  error?: FormError;
}

/** /networks/:id/access: the mode, the rules, the tests with their results, who can reach a node, the editor. */
export function NetworkAccessPage(props: AccessPageProps) {
  const { user, csrfToken, network, canChange, policy, failing, names, nodes, reach, text, baseRevision, applied, error } = props;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/access" error={error}>
      {applied && <Success>Revision {applied} of the access policy is in force.</Success>}
      <ModeSection {...{ csrfToken, network, canChange, policy }} />
      <h2>Rules (revision {policy.revision})</h2>
      <p class="help">
        {policy.revision === 0
          ? "No policy written yet."
          : `Written ${when(policy.updatedAt)}. A deny beats every allow; what no rule allows is denied.`}
      </p>
      <RulesTable rules={policy.rules} names={names} />
      <h2>Tests</h2>
      <TestsTable tests={policy.tests} failing={failing} names={names} />
      {canChange && <WhoCanReach networkId={network.id} nodes={nodes} names={names} rules={policy.rules} reach={reach} />}
      {canChange && (
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading">Edit the policy</h2>
          <PolicyEditor csrfToken={csrfToken} networkId={network.id} revision={baseRevision} text={text} error={error} />
        </section>
      )}
    </NetworkFrame>
  );
}

function ModeSection({ csrfToken, network, canChange, policy }: Pick<AccessPageProps, "csrfToken" | "network" | "canChange" | "policy">) {
  const open = policy.mode === "open";
  return (
    <section aria-labelledby="mode-heading">
      <h2 id="mode-heading">Access mode: {policy.mode}</h2>
      <p>
        {open
          ? "Open: every node reaches every node. The rules below are stored but not enforced."
          : "Policy: nodes reach only what the rules allow; configs hold only allowed peers and every node filters what reaches it."}
      </p>
      {canChange && (
        <form method="post" action={`/networks/${network.id}/access/mode`} class="card">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="accessMode" value={open ? "policy" : "open"} />
          <p class="notice" id="mode-warning">
            {open
              ? "Warning: in policy mode every node loses the peers no rule allows at its next config. The policy's tests run first against the nodes as they are; if one fails, the network stays open."
              : "Warning: in open mode every node reaches every node again; the policy stays stored for later."}
          </p>
          <button type="submit" class={open ? undefined : "danger"} aria-describedby="mode-warning">
            {open ? "Switch to policy mode" : "Switch to open mode"}
          </button>
        </form>
      )}
    </section>
  );
}
