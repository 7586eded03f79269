import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { EmptyState } from "../layout";
import { SearchResult } from "../list-filter";
import { NextPage, PostButton } from "../parts";

export interface DeliveriesProps {
  csrfToken: string;
  deliveries: Schema<"NotificationDelivery">[];
  nextCursor: string | null;
  /** The status filter in force, if any. */
  status?: string;
  channelTargets: Map<string, string>;
  /** The words searched (`?q=`, channels and deliveries alike) and how many deliveries were read to find these. */
  search?: { q: string; searched: number };
}

const STATUS_CLASS = { delivered: "status-ok", pending: "status-warn", failed: "status-bad" } as const;

/** Deliveries, newest first: state, attempts, the last error and a retry for finished ones. */
export function DeliveriesSection({ csrfToken, deliveries, nextCursor, status, channelTargets, search }: DeliveriesProps) {
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      <form method="get" action="/notifications#deliveries" class="card" aria-label="Filter deliveries">
        <label for="delivery-status">State</label>
        <select id="delivery-status" name="status">
          <option value="">Any state</option>
          {["pending", "delivered", "failed"].map((value) => (
            <option value={value} selected={value === status}>
              {value}
            </option>
          ))}
        </select>
        {search && <input type="hidden" name="q" value={search.q} />}
        <button type="submit" class="secondary">
          Show deliveries
        </button>
      </form>
      {search && <SearchResult q={search.q} shown={deliveries.length} searched={search.searched} more={nextCursor !== null} />}
      {deliveries.length === 0 && search ? (
        <EmptyState>No delivery matches “{search.q}”.</EmptyState>
      ) : deliveries.length === 0 ? (
        <EmptyState>No deliveries{status ? ` in state ${status}` : ""} yet. Send a test from a channel above to see one.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Notification deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Channel</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr>
                <td>
                  <code>{delivery.event.type}</code>
                </td>
                <td>{channelTargets.get(delivery.channelId) ?? delivery.channelId}</td>
                <td class={STATUS_CLASS[delivery.status]}>{delivery.status}</td>
                <td>
                  {delivery.attempts} of {delivery.maxAttempts}
                </td>
                <td>{delivery.lastError ?? "—"}</td>
                <td>{ago(delivery.createdAt)}</td>
                <td>
                  {delivery.status !== "pending" && (
                    <PostButton
                      action={`/notifications/deliveries/${delivery.id}/retry`}
                      csrfToken={csrfToken}
                      label="Retry"
                      name={`Retry delivery ${delivery.id}`}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/notifications" query={{ status, q: search?.q }} cursor={nextCursor} />
    </section>
  );
}
