import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage, PostButton } from "../parts";
import type { ConsoleUser } from "../types";

export interface DevicesProps {
  user: ConsoleUser;
  csrfToken: string;
  devices: Schema<"Device">[];
  nextCursor: string | null;
  networkNames: Map<string, string>;
  /** Devices this user may revoke: their own, and those in networks of groups they manage. */
  revocable: Set<string>;
  /** Networks whose enrolment keys this user manages (group owner/admin). */
  keyNetworks: Schema<"Network">[];
  error?: { message: string };
  /** The words searched (`?q=`) and how many devices were read to find the matches. */
  search?: { q?: string; searched: number };
}

const STATUS_CLASS = { online: "status-ok", offline: "status-bad", unknown: "status-warn" } as const;

/** The user's devices (and those of networks they administer), with their last heartbeat. */
export function DevicesPage(props: DevicesProps) {
  const { user, csrfToken, devices, nextCursor, networkNames, revocable, keyNetworks, error, search = { searched: 0 } } = props;
  const { q } = search;
  return (
    <Page title="Devices" user={user} csrfToken={csrfToken} section="/devices">
      <ErrorNotice message={error?.message} />
      <SearchBox path="/devices" label="Search devices by name" q={q} />
      <SearchResult q={q} shown={devices.length} searched={search.searched} more={nextCursor !== null} />
      {devices.length === 0 && q ? null : devices.length === 0 ? (
        <EmptyState>
          No devices yet. On the machine, run <code>wgo up --api … --network …</code> (see the enrolment keys below for machines without a
          person signing in).
        </EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Devices</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Network</th>
              <th scope="col">Address</th>
              <th scope="col">Status</th>
              <th scope="col">Last heartbeat</th>
              <th scope="col">Platform</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <tr>
                <td>{device.name}</td>
                <td>{networkNames.get(device.networkId) ?? device.networkId}</td>
                <td>
                  <code>{device.address}</code>
                </td>
                <td class={STATUS_CLASS[device.status]}>{device.status}</td>
                <td>{ago(device.lastSeenAt)}</td>
                <td>{device.platform || "—"}</td>
                <td>
                  {revocable.has(device.id) && (
                    <PostButton
                      action={`/devices/${device.id}/revoke`}
                      csrfToken={csrfToken}
                      label="Revoke"
                      name={`Revoke ${device.name}`}
                      danger
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/devices" query={{ q }} cursor={nextCursor} />
      {keyNetworks.length > 0 && (
        <section aria-labelledby="keys">
          <h2 id="keys">Enrolment keys</h2>
          <p>Keys let a machine join a network without anyone signing in on it (servers, containers).</p>
          <ul>
            {keyNetworks.map((network) => (
              <li>
                <a href={`/enrolment-keys?network=${network.id}`}>Enrolment keys of {network.name}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
