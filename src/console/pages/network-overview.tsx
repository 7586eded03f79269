import type { Schema } from "../../../client/index.ts";
import { CsrfField } from "../layout";
import { Success } from "../parts";
import type { ConsoleUser } from "../types";
import { FirstRunChecklist, type FirstRunProps } from "./first-run";
import { NetworkFrame, when } from "./network-frame";

export interface OverviewProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  error?: { message: string; fields?: { path: string; message: string }[] };
  values?: Record<string, string>;
  /** What the first-run checklist reads (loaded for the overview's GET). */
  progress?: Omit<FirstRunProps, "network">;
  /** Just created (the create's redirect says so). */
  created?: boolean;
}

export function NetworkOverviewPage({ user, csrfToken, network, canChange, error, values, progress, created }: OverviewProps) {
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="" error={error}>
      {created && <Success>Created the network {network.name}.</Success>}
      {progress && <FirstRunChecklist network={network} {...progress} />}
      <dl class="card">
        <dt>Address range (CIDR)</dt>
        <dd>
          <code>{network.cidr}</code>
        </dd>
        <dt>DNS domain</dt>
        <dd>
          <code>{network.dnsDomain}</code>
        </dd>
        <dt>Routing revision</dt>
        <dd>{network.routingRevision}</dd>
        <dt>DNS revision</dt>
        <dd>{network.dnsRevision}</dd>
        <dt>Created</dt>
        <dd>{when(network.createdAt)}</dd>
        <dt>Last changed</dt>
        <dd>{when(network.updatedAt)}</dd>
      </dl>
      {canChange ? (
        <>
          <section aria-labelledby="edit-network">
            <h2 id="edit-network">Edit the network</h2>
            <form method="post" action={`/networks/${network.id}`} class="card">
              <CsrfField token={csrfToken} />
              <label for="name">Name</label>
              <input id="name" name="name" required value={values?.name ?? network.name} />
              <label for="dnsDomain">DNS domain</label>
              <input id="dnsDomain" name="dnsDomain" required value={values?.dnsDomain ?? network.dnsDomain} />
              <button type="submit">Save changes</button>
            </form>
          </section>
          <section aria-labelledby="delete-network">
            <h2 id="delete-network">Delete the network</h2>
            <p>Deleting is refused while the network holds nodes: remove them first.</p>
            <p>
              <a class="button danger" href={`/networks/${network.id}/delete`}>
                Delete this network…
              </a>
            </p>
          </section>
        </>
      ) : (
        <p class="help">You can read this network; its group's owners and admins change it.</p>
      )}
    </NetworkFrame>
  );
}

/** The confirmation step: deleting happens only from this page's form. */
export function DeleteNetworkPage({ user, csrfToken, network, error }: Omit<OverviewProps, "canChange">) {
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="" error={error}>
      <section aria-labelledby="confirm-delete" class="card">
        <h2 id="confirm-delete">Delete {network.name}?</h2>
        <p>
          The network <strong>{network.name}</strong> (<code>{network.cidr}</code>), its routing policies, pools and DNS records go away.
          This cannot be undone.
        </p>
        <form method="post" action={`/networks/${network.id}/delete`}>
          <CsrfField token={csrfToken} />
          <button type="submit" class="danger">
            Yes, delete {network.name}
          </button>
        </form>
        <p>
          <a href={`/networks/${network.id}`}>Cancel, keep the network</a>
        </p>
      </section>
    </NetworkFrame>
  );
}
