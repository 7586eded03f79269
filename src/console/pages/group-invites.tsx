import { InputField } from "../fields";
import { errorsAt } from "../form";
import { when } from "../format";
import { CsrfField, EmptyState, ErrorNotice, FieldError } from "../layout";
import { PostButton } from "../parts";
import { type GroupProps, RoleSelect } from "./group-shared";

/** Pending invites of a group and the form that sends one (owners and admins only). */
export function InvitesSection({ csrfToken, group, invites = [], grantable, error, values = {}, search }: GroupProps) {
  const base = `/groups/${group.id}`;
  const pending = invites.filter((invite) => invite.status === "pending");
  const refused = error?.form === "invite" ? error : undefined;
  return (
    <section aria-labelledby="invites">
      <h2 id="invites">Invites</h2>
      {pending.length === 0 && search ? (
        <EmptyState>No pending invite matches “{search.q}”.</EmptyState>
      ) : pending.length === 0 ? (
        <EmptyState>No pending invites. Invite someone by email below: they get a link to join.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Pending invites</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {pending.map((invite) => (
              <tr>
                <td>{invite.email}</td>
                <td>{invite.role}</td>
                <td>{when(invite.expiresAt)}</td>
                <td>
                  <PostButton
                    action={`${base}/invites/${invite.id}/revoke`}
                    csrfToken={csrfToken}
                    label="Revoke"
                    name={`Revoke invite for ${invite.email}`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 id="send-invite">Invite by email</h3>
      {refused && <ErrorNotice message={refused.message} fields={refused.fields} />}
      <form method="post" action={`${base}/invites`} class="card" aria-labelledby="send-invite">
        <CsrfField token={csrfToken} />
        <InputField
          id="invite-email"
          label="Email"
          error={refused}
          input={{ name: "email", type: "email", required: true, value: refused ? (values.email ?? "") : "" }}
        />
        <label for="invite-role">Role</label>
        <RoleSelect id="invite-role" roles={grantable} selected={refused ? values.role : "member"} error={refused} />
        <FieldError field="invite-role" messages={errorsAt(refused, "invite-role")} />
        <button type="submit">Send invite</button>
      </form>
    </section>
  );
}
