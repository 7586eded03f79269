import type { Schema } from "../../../client/index.ts";
import type { ConsoleUser } from "../types";

export type Role = Schema<"Group">["role"];
export type FormError = { message: string; fields?: { path: string; message: string }[] };

export interface GroupProps {
  user: ConsoleUser;
  csrfToken: string;
  group: Schema<"Group">;
  members: Schema<"GroupMember">[];
  /** Invites are listed to owners and admins only; undefined for everyone else. */
  invites?: Schema<"Invite">[];
  canManage: boolean;
  /** Roles this user may hand out: only owners (and platform admins) grant owner. */
  grantable: Role[];
  /** A refused form: which one, the API's sentence, and what was typed. */
  error?: FormError & { form: "member" | "invite" | "row" };
  values?: Record<string, string>;
}

/** RoleSelect: the roles the user may grant, with the current one selected. */
export function RoleSelect({ id, roles, selected }: { id: string; roles: Role[]; selected?: string }) {
  return (
    <select id={id} name="role" required>
      {roles.map((role) => (
        <option value={role} selected={role === selected}>
          {role}
        </option>
      ))}
    </select>
  );
}
