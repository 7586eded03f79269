import type { Schema } from "../../../client/index.ts";
import { InputField } from "../fields";
import type { FormError } from "../form";
import { when } from "../format";
import type { FieldMap } from "../humanize";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage } from "../parts";
import type { ConsoleUser } from "../types";

export interface GroupsProps {
  user: ConsoleUser;
  csrfToken: string;
  groups: Schema<"Group">[];
  nextCursor: string | null;
  error?: FormError;
  values?: Record<string, string>;
  /** The words searched (`?q=`) and how many groups were read to find the matches. */
  search?: { q?: string; searched: number };
}

/** The create-group form's field by the API's path: a refusal is shown beside it. */
export const GROUP_FIELDS: FieldMap = { name: { label: "Name", field: "group-name" } };

/** The groups the user belongs to (all of them for a platform admin), and a form to start one. */
export function GroupsPage({ user, csrfToken, groups, nextCursor, error, values = {}, search = { searched: 0 } }: GroupsProps) {
  const { q } = search;
  return (
    <Page title="Groups" user={user} csrfToken={csrfToken} section="/groups">
      <SearchBox path="/groups" label="Search groups by name" q={q} />
      <SearchResult q={q} shown={groups.length} searched={search.searched} more={nextCursor !== null} />
      {groups.length === 0 && q ? null : groups.length === 0 ? (
        <EmptyState>You are not in any group yet. Create one below, or accept an invitation someone sent you.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Your groups</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Your role</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr>
                <td>
                  <a href={`/groups/${group.id}`}>{group.name}</a>
                </td>
                <td>{group.role}</td>
                <td>{when(group.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/groups" query={{ q }} cursor={nextCursor} />
      <section aria-labelledby="create-group">
        <h2 id="create-group">Create a group</h2>
        <ErrorNotice message={error?.message} fields={error?.fields} />
        <form method="post" action="/groups" class="card">
          <CsrfField token={csrfToken} />
          <InputField
            id="group-name"
            label="Name"
            error={error}
            help="You become the group's owner."
            input={{ name: "name", required: true, maxlength: 100, value: values.name ?? "" }}
          />
          <button type="submit">Create group</button>
        </form>
      </section>
    </Page>
  );
}
