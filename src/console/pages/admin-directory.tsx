import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { PostButton, SecretOnce } from "../parts";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminDirectoryProps {
  user: ConsoleUser;
  csrfToken: string;
  /** Where the identity provider's SCIM client connects: this console's origin + /api/v1/scim/v2. */
  scimBase: string;
  tokens: Schema<"ScimToken">[];
  mappings: Schema<"IdpGroupMapping">[];
  /** Our groups (the first page), for the mapping form and to name each mapping's group. */
  groups: Schema<"Group">[];
  /** The groups mappings name that the first page does not hold, read by id to name them. */
  otherGroups?: Schema<"Group">[];
  /** A SCIM token just made: shown in this answer only. */
  issued?: Schema<"IssuedScimToken">;
  error?: { message: string; fields?: { path: string; message: string }[] };
}

const ROLES = ["viewer", "member", "admin", "owner"] as const;

/** The organisation's directory: SCIM tokens for its provisioning client, and IdP groups mapped onto ours (docs/identity.md). */
export function AdminDirectoryPage(props: AdminDirectoryProps) {
  const { user, csrfToken, scimBase, tokens, mappings, groups, otherGroups = [], issued, error } = props;
  const groupName = new Map([...groups, ...otherGroups].map((group) => [group.id, group.name] as const));
  return (
    <Page title="Directory" user={user} csrfToken={csrfToken} section="/admin">
      <AdminNav current="/admin/directory" />
      {issued && (
        <SecretOnce id="scim-token" label="SCIM token" value={issued.token}>
          <p>
            Give it to the identity provider as its bearer token (Okta: HTTP Header; Entra ID: Secret Token), with the base URL{" "}
            <code>{scimBase}</code>.
          </p>
        </SecretOnce>
      )}
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <section aria-labelledby="scim">
        <h2 id="scim">SCIM provisioning</h2>
        <p>
          The identity provider's SCIM client connects to <code id="scim-base">{scimBase}</code>{" "}
          <button type="button" class="secondary" data-copy="scim-base">
            Copy URL
          </button>
        </p>
        {tokens.length === 0 ? (
          <EmptyState>No SCIM token yet. Make one below for each identity provider.</EmptyState>
        ) : (
          <table>
            <caption class="visually-hidden">SCIM tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Made</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr>
                  <td>{token.name}</td>
                  <td>{token.status}</td>
                  <td>{ago(token.createdAt)}</td>
                  <td>{token.lastUsedAt ? ago(token.lastUsedAt) : "never"}</td>
                  <td>
                    {token.status === "active" && (
                      <PostButton
                        action={`/admin/directory/tokens/${token.id}/revoke`}
                        csrfToken={csrfToken}
                        label="Revoke"
                        name={`Revoke SCIM token ${token.name}`}
                        danger
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form method="post" action="/admin/directory/tokens" class="card">
          <CsrfField token={csrfToken} />
          <label for="scim-token-name">Name (the directory that uses it; changes are audited as scim:name)</label>
          <input id="scim-token-name" name="name" required maxlength={64} placeholder="okta" />
          <button type="submit">Make SCIM token</button>
        </form>
      </section>
      <MappingsSection csrfToken={csrfToken} mappings={mappings} groups={groups} groupName={groupName} />
    </Page>
  );
}

function MappingsSection(props: {
  csrfToken: string;
  mappings: Schema<"IdpGroupMapping">[];
  groups: Schema<"Group">[];
  groupName: Map<string, string>;
}) {
  const { csrfToken, mappings, groups, groupName } = props;
  return (
    <section aria-labelledby="mappings">
      <h2 id="mappings">IdP groups onto groups</h2>
      <p>Everyone in the IdP group gets the role in the group; the highest mapped role wins; members added here are left alone.</p>
      {mappings.length === 0 ? (
        <EmptyState>No mapping yet: people from the directory get no group until one names theirs.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">IdP group mappings</caption>
          <thead>
            <tr>
              <th scope="col">IdP group</th>
              <th scope="col">Group</th>
              <th scope="col">Role</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {mappings.map((mapping) => (
              <tr>
                <td>{mapping.idpGroup}</td>
                <td>{groupName.get(mapping.groupId) ?? "(a group you cannot see)"}</td>
                <td>{mapping.role}</td>
                <td>
                  <PostButton
                    action={`/admin/directory/mappings/${mapping.id}/remove`}
                    csrfToken={csrfToken}
                    label="Remove"
                    name={`Remove the mapping of ${mapping.idpGroup}`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form method="post" action="/admin/directory/mappings" class="card">
        <CsrfField token={csrfToken} />
        <label for="mapping-idp-group">IdP group (its display name or id, as SCIM or the groups claim names it)</label>
        <input id="mapping-idp-group" name="idpGroup" required maxlength={254} placeholder="Engineering" />
        <label for="mapping-group">Group</label>
        <select id="mapping-group" name="groupId" required>
          {groups.map((group) => (
            <option value={group.id}>{group.name}</option>
          ))}
        </select>
        <label for="mapping-role">Role</label>
        <select id="mapping-role" name="role">
          {ROLES.map((role) => (
            <option value={role} selected={role === "member"}>
              {role}
            </option>
          ))}
        </select>
        <button type="submit">Map IdP group</button>
      </form>
    </section>
  );
}
