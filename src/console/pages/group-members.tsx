import { CsrfField, EmptyState } from "../layout";
import { PostButton } from "../parts";
import { type GroupProps, RoleSelect } from "./group-shared";

/** The members table; owners and admins get a role picker and a remove button on each row. */
export function MembersTable({ user, csrfToken, group, members, canManage, grantable, search }: GroupProps) {
  const base = `/groups/${group.id}`;
  if (members.length === 0 && search) return <EmptyState>No member matches “{search.q}”.</EmptyState>;
  if (members.length === 0) return <EmptyState>No members. Add someone below.</EmptyState>;
  return (
    <table>
      <caption class="visually-hidden">Members of {group.name}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Source</th>
          {canManage && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {members.map((member) => {
          // Only owners may touch owners: an admin sees an owner's row read-only (the API refuses anyway).
          const editable = canManage && (member.role !== "owner" || grantable.includes("owner"));
          const selectId = `role-${member.userId}`;
          return (
            <tr>
              <td>{member.name || "—"}</td>
              <td>{member.email}</td>
              <td>
                {editable ? (
                  <form method="post" action={`${base}/members/${member.userId}/role`}>
                    <CsrfField token={csrfToken} />
                    <label for={selectId} class="visually-hidden">
                      Role of {member.email}
                    </label>
                    <RoleSelect id={selectId} roles={grantable} selected={member.role} />
                    <button type="submit" class="secondary" aria-label={`Change role of ${member.email}`}>
                      Change role
                    </button>
                  </form>
                ) : (
                  member.role
                )}
              </td>
              <td>
                {member.source === "idp" ? (
                  <span title="Given by an IdP group mapping: the directory changes it, until someone changes its role here">
                    directory
                  </span>
                ) : (
                  "added here"
                )}
              </td>
              {canManage && (
                <td>
                  {editable && member.userId !== user.id && (
                    <PostButton
                      action={`${base}/members/${member.userId}/remove`}
                      csrfToken={csrfToken}
                      label="Remove"
                      name={`Remove ${member.email}`}
                      danger
                    />
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
