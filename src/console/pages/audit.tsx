import type { Schema } from "../../../client/index.ts";
import { when } from "../format";
import { EmptyState, Page } from "../layout";
import { NextPage } from "../parts";
import { actionWords, type Person } from "../routes/audit-names";
import type { ConsoleUser } from "../types";

export interface AuditFilters {
  group?: string;
  network?: string;
  actor?: string;
}

export interface AuditProps {
  user: ConsoleUser;
  csrfToken: string;
  events: Schema<"AuditEvent">[];
  nextCursor: string | null;
  filters: AuditFilters;
  groups: Schema<"Group">[];
  networks: Schema<"Network">[];
  /** People the log can name (actor column, actor filter) and names of what it touched by id (audit-names.ts). */
  people: Person[];
  names: ReadonlyMap<string, string>;
}

/** Successful changes, newest first: who, what, when; filtered by group, network or actor (the API's filters). */
export function AuditPage({ user, csrfToken, events, nextCursor, filters, groups, networks, people, names }: AuditProps) {
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const networkNames = new Map(networks.map((network) => [network.id, network.name]));
  const emails = new Map(people.map((person) => [person.id, person.email]));
  const nameOf = (id: string) => networkNames.get(id) ?? groupNames.get(id) ?? names.get(id) ?? emails.get(id);
  // A filter by someone the page cannot name (a link from elsewhere) stays selected, by id.
  const choices = filters.actor && !emails.has(filters.actor) ? [...people, { id: filters.actor, email: filters.actor }] : people;
  return (
    <Page title="Audit log" user={user} csrfToken={csrfToken} section="/audit">
      <form method="get" action="/audit" class="card" aria-label="Filter the audit log">
        <label for="audit-group">Group</label>
        <select id="audit-group" name="group">
          <option value="">Every group you manage</option>
          {groups.map((group) => (
            <option value={group.id} selected={group.id === filters.group}>
              {group.name}
            </option>
          ))}
        </select>
        <label for="audit-network">Network</label>
        <select id="audit-network" name="network">
          <option value="">Any network</option>
          {networks.map((network) => (
            <option value={network.id} selected={network.id === filters.network}>
              {network.name}
            </option>
          ))}
        </select>
        <label for="audit-actor">Actor</label>
        <select id="audit-actor" name="actor">
          <option value="">Anyone</option>
          {choices.map((person) => (
            <option value={person.id} selected={person.id === filters.actor}>
              {person.email}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show events
        </button>
      </form>
      {events.length === 0 ? (
        <EmptyState>
          No audit events{filters.group || filters.network || filters.actor ? " match these filters" : ""}. Changes to groups you own or
          administer appear here.
        </EmptyState>
      ) : (
        <table class="ids">
          <caption class="visually-hidden">Audit events, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Resource</th>
              <th scope="col">Group / network</th>
              <th scope="col">Status</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr>
                <td>{when(event.at)}</td>
                <td>
                  <Actor actor={event.actor} emails={emails} names={names} />
                </td>
                <td>
                  {actionWords(event.method, event.route)}
                  <span class="help">
                    {" "}
                    <code>
                      {event.method} {event.route}
                    </code>
                  </span>
                </td>
                <td>{event.resourceId ? <Resource id={event.resourceId} nameOf={nameOf} /> : "—"}</td>
                <td>
                  {event.groupId ? (groupNames.get(event.groupId) ?? event.groupId) : "—"}
                  {event.networkId ? ` / ${networkNames.get(event.networkId) ?? event.networkId}` : ""}
                </td>
                <td>{event.status}</td>
                <td>
                  <code>{event.requestId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/audit" query={{ ...filters }} cursor={nextCursor} />
    </Page>
  );
}

/** A person by e-mail; a device, agent or someone the page cannot name by kind and id. */
function Actor({
  actor,
  emails,
  names,
}: {
  actor: Schema<"AuditEvent">["actor"];
  emails: ReadonlyMap<string, string>;
  names: ReadonlyMap<string, string>;
}) {
  const email = actor.type === "user" && actor.id ? emails.get(actor.id) : undefined;
  if (email) return <>{email}</>;
  const name = actor.id ? names.get(actor.id) : undefined;
  if (name) return <>{`${actor.type} ${name}`}</>;
  return (
    <>
      {actor.type} {actor.id && <code>{actor.id}</code>}
    </>
  );
}

/** A resource by name; a versioned one ("net_…@3": the access policy's revision) as its owner's name and revision. */
function Resource({ id, nameOf }: { id: string; nameOf: (id: string) => string | undefined }) {
  const [owner = id, revision] = id.split("@");
  const name = nameOf(owner);
  if (!name) return <Gone id={id} />;
  return <>{revision ? `${name}, revision ${revision}` : name}</>;
}

/** What the page cannot name: gone since (deleted), or outside what this user may read; its id is all there is. */
const Gone = ({ id }: { id: string }) => (
  <span class="muted">
    no longer listed <code>{id}</code>
  </span>
);
