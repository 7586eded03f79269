import type { Schema } from "../../../client/index.ts";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { NextPage } from "../parts";
import type { ConsoleUser } from "../types";

export interface NetworksProps {
  user: ConsoleUser;
  csrfToken: string;
  networks: Schema<"Network">[];
  nextCursor: string | null;
  /** Groups the user may create networks in (owner/admin, or all for a platform admin). */
  creatableIn: Schema<"Group">[];
  groupNames: Map<string, string>;
  error?: { message: string; fields?: { path: string; message: string }[] };
  values?: Record<string, string>;
}

export function NetworksPage({ user, csrfToken, networks, nextCursor, creatableIn, groupNames, error, values = {} }: NetworksProps) {
  return (
    <Page title="Networks" user={user} csrfToken={csrfToken} section="/networks">
      {networks.length === 0 ? (
        <EmptyState>
          No networks yet.{creatableIn.length > 0 ? " Create the first one below." : " Ask a group owner to add you to one."}
        </EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Networks you can see</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Group</th>
              <th scope="col">CIDR</th>
              <th scope="col">DNS domain</th>
              <th scope="col">Routing revision</th>
            </tr>
          </thead>
          <tbody>
            {networks.map((network) => (
              <tr>
                <td>
                  <a href={`/networks/${network.id}`}>{network.name}</a>
                </td>
                <td>{groupNames.get(network.groupId) ?? network.groupId}</td>
                <td>
                  <code>{network.cidr}</code>
                </td>
                <td>
                  <code>{network.dnsDomain}</code>
                </td>
                <td>{network.routingRevision}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/networks" query={{}} cursor={nextCursor} />
      {creatableIn.length > 0 && (
        <section aria-labelledby="create-network">
          <h2 id="create-network">Create a network</h2>
          <ErrorNotice message={error?.message} fields={error?.fields} />
          <form method="post" action="/networks" class="card">
            <CsrfField token={csrfToken} />
            <label for="groupId">Group</label>
            <select id="groupId" name="groupId" required>
              {creatableIn.map((group) => (
                <option value={group.id} selected={values.groupId === group.id}>
                  {group.name}
                </option>
              ))}
            </select>
            <label for="name">Name</label>
            <input id="name" name="name" required value={values.name ?? ""} />
            <label for="cidr">Address range (CIDR)</label>
            <input id="cidr" name="cidr" required placeholder="10.20.0.0/24" aria-describedby="cidr-help" value={values.cidr ?? ""} />
            <p id="cidr-help" class="help">
              IPv4 or IPv6 with zero host bits: RFC 1918, 100.64.0.0/10 or fc00::/7.
            </p>
            <label for="dnsDomain">DNS domain (optional)</label>
            <input id="dnsDomain" name="dnsDomain" placeholder="corp.internal" aria-describedby="dns-help" value={values.dnsDomain ?? ""} />
            <p id="dns-help" class="help">
              Defaults to the network's name followed by .internal.
            </p>
            <button type="submit">Create network</button>
          </form>
        </section>
      )}
    </Page>
  );
}
