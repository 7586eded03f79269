import { InputField } from "../fields";
import { errorsAt } from "../form";
import { CsrfField, ErrorNotice, FieldError, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { PostButton } from "../parts";
import { InvitesSection } from "./group-invites";
import { MembersTable } from "./group-members";
import { type GroupProps, RoleSelect } from "./group-shared";

/** One group: its members with their roles and, for owners and admins, adding people and invites. */
export function GroupPage(props: GroupProps) {
  const { user, csrfToken, group, canManage, grantable, error, values = {} } = props;
  const base = `/groups/${group.id}`;
  const memberError = error?.form === "member" ? error : undefined;
  return (
    <Page title={`Group ${group.name}`} user={user} csrfToken={csrfToken} section="/groups">
      <p>
        Your role: <strong>{group.role}</strong>. <a href="/groups">All groups</a>
        {/* The first-run path goes group → network: the next step, with this group already chosen. */}
        {canManage && (
          <>
            {" "}
            · <a href={`/networks?group=${encodeURIComponent(group.id)}#create-network`}>Create a network in {group.name}</a>
          </>
        )}
      </p>
      {/* A refusal whose form is not on this page (a viewer's forged POST) shows at the top. */}
      {error && (error.form === "row" || !canManage) && <ErrorNotice message={error.message} fields={error.fields} />}
      <h2 id="members">Members</h2>
      <SearchBox path={base} label="Search members and invites by email, name or role" q={props.search?.q} />
      {props.search && (
        <SearchResult
          q={props.search.q}
          shown={props.members.length + (props.invites?.length ?? 0)}
          searched={props.search.searched}
          more={false}
        />
      )}
      <MembersTable {...props} />
      {canManage && (
        <section aria-labelledby="add-member">
          <h2 id="add-member">Add a member</h2>
          <p class="help">Someone who already shares a group with you, by email or user id. Anyone else: send an invite below.</p>
          {memberError && <ErrorNotice message={memberError.message} fields={memberError.fields} />}
          <form method="post" action={`${base}/members`} class="card">
            <CsrfField token={csrfToken} />
            <InputField
              id="member-who"
              label="Email or user id"
              error={memberError}
              input={{ name: "who", required: true, value: memberError ? (values.who ?? "") : "" }}
            />
            <label for="member-role">Role</label>
            <RoleSelect id="member-role" roles={grantable} selected={memberError ? values.role : "member"} error={memberError} />
            <FieldError field="member-role" messages={errorsAt(memberError, "member-role")} />
            <button type="submit">Add member</button>
          </form>
        </section>
      )}
      {canManage && <InvitesSection {...props} />}
      {!canManage && group.role !== "owner" && (
        <section aria-labelledby="leave">
          <h2 id="leave">Leave this group</h2>
          <PostButton action={`${base}/members/${user.id}/remove`} csrfToken={csrfToken} label="Leave group" danger />
        </section>
      )}
    </Page>
  );
}
