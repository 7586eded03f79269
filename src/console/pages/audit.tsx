import type { Schema } from "../../../client/index.ts";
import { when } from "../format";
import { EmptyState, Page } from "../layout";
import { NextPage } from "../parts";
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
}

/** Successful changes, newest first: who, what, when; filtered by group, network or actor (the API's filters). */
export function AuditPage({ user, csrfToken, events, nextCursor, filters, groups, networks }: AuditProps) {
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const networkNames = new Map(networks.map((network) => [network.id, network.name]));
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
        <label for="audit-actor">Actor id</label>
        <input id="audit-actor" name="actor" placeholder="usr_…" value={filters.actor ?? ""} />
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
                  {event.actor.type} <code>{event.actor.id ?? ""}</code>
                </td>
                <td>
                  <code>
                    {event.method} {event.route}
                  </code>
                </td>
                <td>
                  <code>{event.resourceId ?? "—"}</code>
                </td>
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
