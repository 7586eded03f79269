import type { Schema } from "../../../client/index.ts";
import { FieldsetError, InputField, SelectField } from "../fields";
import type { FormError } from "../form";
import { when } from "../format";
import type { FieldMap } from "../humanize";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { PostButton, SecretOnce } from "../parts";
import type { ConsoleUser } from "../types";
import { SearchBox } from "../list-filter";
import { type DeliveriesProps, DeliveriesSection } from "./notification-deliveries";

export interface NotificationsProps extends DeliveriesProps {
  user: ConsoleUser;
  channels: Schema<"NotificationChannel">[];
  eventTypes: { type: string; description?: string }[];
  /** A webhook signing secret just issued (creation or rotation): shown in this answer only. */
  secret?: { channelTarget: string; value: string };
  error?: FormError;
  values?: { type?: string; target?: string; events?: string[] };
}

/** The add-channel form's fields by the API's paths: a refusal is shown beside the field it names. */
export const CHANNEL_FIELDS: FieldMap = {
  type: { label: "Type", field: "channel-type" },
  target: { label: "Target", field: "channel-target" },
  events: { label: "Events", field: "channel-events" },
};

/** The user's own notification channels (webhook, email) and what was delivered through them. */
export function NotificationsPage(props: NotificationsProps) {
  const { user, csrfToken, channels, eventTypes, secret, error, values = {} } = props;
  const chosen = new Set(values.events ?? []);
  return (
    <Page title="Notifications" user={user} csrfToken={csrfToken} section="/notifications">
      {secret && (
        <SecretOnce id="webhook-secret" label="Signing secret" value={secret.value}>
          <p>Verify the signature of each request to {secret.channelTarget} with it.</p>
        </SecretOnce>
      )}
      <SearchBox
        path="/notifications"
        label="Search channels and deliveries (target, event, state or error)"
        q={props.search?.q}
        keep={{ status: props.status }}
      />
      <h2 id="channels">Channels</h2>
      {channels.length === 0 && props.search ? (
        <EmptyState>No channel matches “{props.search.q}”.</EmptyState>
      ) : channels.length === 0 ? (
        <EmptyState>No channels yet. Add a webhook or your email below to hear about offline nodes, failovers and more.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Your notification channels</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Target</th>
              <th scope="col">Events</th>
              <th scope="col">Enabled</th>
              <th scope="col">Secret rotated</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((channel) => (
              <tr>
                <td>{channel.type}</td>
                <td>
                  <code>{channel.target}</code>
                </td>
                <td>{channel.events.join(", ")}</td>
                <td>{channel.enabled ? "yes" : "no"}</td>
                <td>{channel.type === "webhook" ? when(channel.secretRotatedAt) : "—"}</td>
                <td>
                  <ul class="buttons">
                    <li>
                      <PostButton
                        action={`/notifications/channels/${channel.id}/test`}
                        csrfToken={csrfToken}
                        label="Send test"
                        name={`Send test to ${channel.target}`}
                      />
                    </li>
                    {channel.type === "webhook" && (
                      <li>
                        <PostButton
                          action={`/notifications/channels/${channel.id}/rotate-secret`}
                          csrfToken={csrfToken}
                          label="Rotate secret"
                          name={`Rotate secret of ${channel.target}`}
                        />
                      </li>
                    )}
                    <li>
                      <PostButton
                        action={`/notifications/channels/${channel.id}/delete`}
                        csrfToken={csrfToken}
                        label="Delete"
                        name={`Delete channel ${channel.target}`}
                        danger
                      />
                    </li>
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="add-channel">
        <h2 id="add-channel">Add a channel</h2>
        <ErrorNotice message={error?.message} fields={error?.fields} />
        <form method="post" action="/notifications/channels" class="card">
          <CsrfField token={csrfToken} />
          <SelectField id="channel-type" label="Type" error={error} select={{ name: "type" }}>
            <option value="webhook" selected={values.type !== "email"}>
              Webhook (HTTPS, signed)
            </option>
            <option value="email" selected={values.type === "email"}>
              Email
            </option>
          </SelectField>
          <InputField
            id="channel-target"
            label="Target"
            error={error}
            help={`A webhook's https URL, or for email your own address (left empty: ${user.email}).`}
            helpId="target-help"
            input={{ name: "target", value: values.target ?? "" }}
          />
          <fieldset
            id="channel-events"
            aria-describedby={error?.fields?.some((field) => field.field === "channel-events") ? "channel-events-error" : undefined}
          >
            <legend>Events</legend>
            <FieldsetError id="channel-events" error={error} />
            {eventTypes.map((event) => (
              <div>
                <input type="checkbox" id={`event-${event.type}`} name="events" value={event.type} checked={chosen.has(event.type)} />{" "}
                <label for={`event-${event.type}`}>
                  <code>{event.type}</code> {event.description ? `: ${event.description}` : ""}
                </label>
              </div>
            ))}
          </fieldset>
          <button type="submit">Add channel</button>
        </form>
      </section>
      <DeliveriesSection {...props} />
    </Page>
  );
}
