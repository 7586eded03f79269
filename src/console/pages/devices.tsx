import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage, PostButton } from "../parts";
import type { PeerSeen } from "../peer-seen";
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
  /** Devices that never beat (a WireGuard app), as their peers report them (peer-seen.ts), and those peers' names. */
  peerSeen?: Map<string, PeerSeen>;
  reporterNames?: Map<string, string>;
}

const SEEN_WORDS = { up: "online", stale: "idle", down: "offline" } as const;
const SEEN_CLASS = { up: "status-ok", stale: "status-warn", down: "status-bad" } as const;

/** A device's state: its heartbeats, or for one that never beats (a config file), its peers' reports of handshakes. */
function DeviceState({ device, seen, by }: { device: Schema<"Device">; seen?: PeerSeen; by?: string }) {
  if (device.lastSeenAt !== null || !seen) {
    const words = device.status === "unknown" ? "never seen" : device.status;
    return <td class={STATUS_CLASS[device.status]}>{words}</td>;
  }
  return (
    <td class={SEEN_CLASS[seen.state]}>
      {SEEN_WORDS[seen.state]}{" "}
      <span class="help">
        (handshake {ago(seen.lastHandshakeAt)}, as {by ?? "a peer"} reports)
      </span>
    </td>
  );
}

const STATUS_CLASS = { online: "status-ok", offline: "status-bad", unknown: "status-warn" } as const;

/** The user's devices (and those of networks they administer), with their last heartbeat. */
export function DevicesPage(props: DevicesProps) {
  const { user, csrfToken, devices, nextCursor, networkNames, revocable, keyNetworks, error, search = { searched: 0 } } = props;
  const { peerSeen = new Map(), reporterNames = new Map() } = props;
  const { q } = search;
  return (
    <Page title="Devices" user={user} csrfToken={csrfToken} section="/devices">
      <ErrorNotice message={error?.message} />
      <SearchBox path="/devices" label="Search devices by name" q={q} />
      <SearchResult q={q} shown={devices.length} searched={search.searched} more={nextCursor !== null} />
      {devices.length === 0 && q ? null : devices.length === 0 ? (
        <EmptyState>
          No devices yet. Open a network and choose <strong>Add a device</strong>: a laptop with <code>wgo up</code>, or a phone with the
          WireGuard app.
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
                <DeviceState
                  device={device}
                  seen={peerSeen.get(device.id)}
                  by={reporterNames.get(peerSeen.get(device.id)?.byNodeId ?? "")}
                />
                <td>{device.lastSeenAt === null && peerSeen.has(device.id) ? "none: a config file" : ago(device.lastSeenAt)}</td>
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
