import type { Schema } from "../../../client/index.ts";
import { when } from "../format";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { PostButton, SecretOnce } from "../parts";
import type { ConsoleUser } from "../types";
import { DeviceSteps } from "./device-steps";

export interface EnrolmentKeysProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  keys: Schema<"EnrolmentKey">[];
  /** Just created: the key (shown this once) and the command that uses it. */
  created?: { key: string; command: string; origin: string };
  error?: { message: string; fields?: { path: string; message: string }[] };
  values?: Record<string, string>;
}

export const VALIDITY = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "1 day" },
  { seconds: 604_800, label: "7 days" },
  { seconds: 2_592_000, label: "30 days" },
];

function stateOf(key: Schema<"EnrolmentKey">) {
  if (key.revokedAt) return "revoked";
  if (Date.parse(key.expiresAt) <= Date.now()) return "expired";
  if (key.usedCount >= key.usageLimit) return "used up";
  return "active";
}

/** A network's headless enrolment keys: create (the key shown once, with its wgo command), list, revoke. */
export function EnrolmentKeysPage({ user, csrfToken, network, keys, created, error, values = {} }: EnrolmentKeysProps) {
  return (
    <Page title={`Enrolment keys of ${network.name}`} user={user} csrfToken={csrfToken} section="/devices">
      <p>
        <a href={`/networks/${network.id}/add-device`}>Add a device to {network.name}</a> · <a href="/devices">All devices</a>
      </p>
      {created && (
        <SecretOnce id="new-key" label="Enrolment key" value={created.key}>
          <p>On the machine to enrol, as root:</p>
          <DeviceSteps origin={created.origin} up={created.command} prefix="key" />
        </SecretOnce>
      )}
      {keys.length === 0 ? (
        <EmptyState>No enrolment keys for this network yet. Create one below.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Enrolment keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Uses</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr>
                <td>{key.name}</td>
                <td>
                  {key.usedCount} of {key.usageLimit}
                </td>
                <td>{when(key.expiresAt)}</td>
                <td>{stateOf(key)}</td>
                <td>
                  {!key.revokedAt && (
                    <PostButton
                      action={`/enrolment-keys/${key.id}/revoke`}
                      csrfToken={csrfToken}
                      label="Revoke"
                      name={`Revoke key ${key.name}`}
                      fields={{ network: network.id }}
                      danger
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="create-key">
        <h2 id="create-key">Create an enrolment key</h2>
        <ErrorNotice message={error?.message} fields={error?.fields} />
        <form method="post" action="/enrolment-keys" class="card">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="network" value={network.id} />
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxlength={100} value={values.name ?? ""} />
          <label for="key-uses">How many machines may use it</label>
          <input id="key-uses" name="usageLimit" type="number" min={1} max={10000} required value={values.usageLimit ?? "1"} />
          <label for="key-validity">Valid for</label>
          <select id="key-validity" name="expiresInSeconds">
            {VALIDITY.map((option) => (
              <option value={String(option.seconds)} selected={(values.expiresInSeconds ?? "604800") === String(option.seconds)}>
                {option.label}
              </option>
            ))}
          </select>
          <button type="submit">Create enrolment key</button>
        </form>
      </section>
    </Page>
  );
}
