import type { Schema } from "../../../client/index.ts";
import { InputField, SelectField } from "../fields";
import type { FormError } from "../form";
import type { FieldMap, SentenceFields } from "../humanize";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
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
  error?: FormError;
  values?: Record<string, string>;
  /** The words searched (`?q=`) and how many networks were read to find the matches. */
  search?: { q?: string; searched: number };
}

/** The create-network form's fields by the API's paths, and the 409s that are about one of them. */
export const NETWORK_FIELDS: FieldMap = {
  groupId: { label: "Group", field: "groupId" },
  name: { label: "Name", field: "name" },
  cidr: { label: "Address range (CIDR)", field: "cidr" },
  dnsDomain: { label: "DNS domain", field: "dnsDomain" },
};
export const NETWORK_SENTENCES: SentenceFields = [
  [/already has a network named/, "name"],
  [/ overlaps /, "cidr"],
];

export function NetworksPage(props: NetworksProps) {
  const { user, csrfToken, networks, nextCursor, creatableIn, groupNames, error, values = {}, search = { searched: 0 } } = props;
  const { q } = search;
  return (
    <Page title="Networks" user={user} csrfToken={csrfToken} section="/networks">
      <SearchBox path="/networks" label="Search networks by name or DNS domain" q={q} />
      <SearchResult q={q} shown={networks.length} searched={search.searched} more={nextCursor !== null} />
      {networks.length === 0 && q ? null : networks.length === 0 ? (
        <EmptyState>
          No networks yet.
          {creatableIn.length > 0 ? (
            " Create the first one below."
          ) : (
            // An empty server's first page after sign-in: a network lives in a group, so the way on is making one.
            <>
              {" "}
              A network belongs to a group: <a href="/groups">create a group</a> first, or ask a group owner to add you to theirs.
            </>
          )}
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
      <NextPage path="/networks" query={{ q }} cursor={nextCursor} />
      {creatableIn.length > 0 && (
        <section aria-labelledby="create-network">
          <h2 id="create-network">Create a network</h2>
          <ErrorNotice message={error?.message} fields={error?.fields} />
          <form method="post" action="/networks" class="card">
            <CsrfField token={csrfToken} />
            <SelectField id="groupId" label="Group" error={error} select={{ name: "groupId", required: true }}>
              {creatableIn.map((group) => (
                <option value={group.id} selected={values.groupId === group.id}>
                  {group.name}
                </option>
              ))}
            </SelectField>
            <InputField id="name" label="Name" error={error} input={{ name: "name", required: true, value: values.name ?? "" }} />
            <InputField
              id="cidr"
              label="Address range (CIDR)"
              error={error}
              help="IPv4 or IPv6 with zero host bits: RFC 1918, 100.64.0.0/10 or fc00::/7."
              input={{ name: "cidr", required: true, placeholder: "10.20.0.0/24", value: values.cidr ?? "" }}
            />
            <InputField
              id="dnsDomain"
              label="DNS domain (optional)"
              error={error}
              help="Defaults to the network's name followed by .internal."
              helpId="dns-help"
              input={{ name: "dnsDomain", placeholder: "corp.internal", value: values.dnsDomain ?? "" }}
            />
            <button type="submit">Create network</button>
          </form>
        </section>
      )}
    </Page>
  );
}
