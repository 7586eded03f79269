// A candidate policy's preview (POST /networks/:id/access-policy/preview), shown as a diff before anything is
// written: per node the peers it gains and loses, the flows that change, and the tests it would fail. Apply
// sends exactly the previewed text with the revision it was previewed against (If-Match), so a write made in
// between is refused rather than overwritten.
import type { Schema } from "../../../client/index.ts";
import type { FormError } from "../form";
import type { Names } from "../humanize";
import { CsrfField, EmptyState } from "../layout";
import type { ConsoleUser } from "../types";
import { PolicyEditor } from "./access-editor";
import { NetworkFrame } from "./network-frame";

export interface PreviewPageProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  preview: Schema<"AccessPreview">;
  names: Names;
  text: string;
  baseRevision: number;
  /** The failing tests, worded and placed at the document field. */
  error?: FormError;
}

const named = (ids: string[], names: Names) => ids.map((id) => names.get(id) ?? id).join(", ");

export function AccessPreviewPage({ user, csrfToken, network, preview, names, text, baseRevision, error }: PreviewPageProps) {
  const failing = preview.failingTests.length > 0;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/access" error={error}>
      <h2>Preview: what revision {baseRevision + 1} would change</h2>
      <p>
        {preview.nodesChanged === 0
          ? "No node's peers change."
          : `${preview.nodesChanged} node${preview.nodesChanged === 1 ? "" : "s"} would change peers`}
        {preview.truncated ? " (the first 1,000 listed)." : "."} Compared with the network as it is now
        {network.accessMode === "open" ? " (open: everything allowed), as if it were in policy mode." : "."}
      </p>
      {preview.peers.length > 0 && (
        <table>
          <caption>Peers per node</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Gains</th>
              <th scope="col">Loses</th>
            </tr>
          </thead>
          <tbody>
            {preview.peers.map((row) => (
              <tr>
                <th scope="row">{names.get(row.nodeId) ?? row.nodeId}</th>
                <td class="status-ok">{row.added.length > 0 ? `+ ${named(row.added, names)}` : ""}</td>
                <td class="status-bad">{row.removed.length > 0 ? `− ${named(row.removed, names)}` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.flows.length === 0 ? (
        <EmptyState>No flow changes.</EmptyState>
      ) : (
        <table>
          <caption>Flows that change</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Gained</th>
              <th scope="col">Lost</th>
            </tr>
          </thead>
          <tbody>
            {preview.flows.map((flow) => (
              <tr>
                <td>{named(flow.from, names)}</td>
                <td>{named(flow.to, names)}</td>
                <td class="status-ok">{flow.gained.length > 0 ? `+ ${flow.gained.join(", ")}` : ""}</td>
                <td class="status-bad">{flow.lost.length > 0 ? `− ${flow.lost.join(", ")}` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {failing ? (
        <p class="notice error">Apply is offered once every test passes: fix the document below and preview again.</p>
      ) : (
        <form method="post" action={`/networks/${network.id}/access/apply`} class="card">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="revision" value={String(baseRevision)} />
          <input type="hidden" name="document" value={text} />
          <p class="help">Writes the previewed document as revision {baseRevision + 1}, unless another revision was written since.</p>
          <button type="submit">Apply as revision {baseRevision + 1}</button>
        </form>
      )}
      <h2>Edit again</h2>
      <PolicyEditor csrfToken={csrfToken} networkId={network.id} revision={baseRevision} text={text} error={error} />
    </NetworkFrame>
  );
}
