import type { Schema } from "../../../client/index.ts";
import { errorsAt, type FormError } from "../form";
import type { FieldMap } from "../humanize";
import { invalidAttrs } from "../layout";
import type { ConsoleUser } from "../types";

export type Role = Schema<"Group">["role"];
export type { FormError };

/** The add-member and invite forms' fields by the API's paths (a member is added by email or by user id). */
export const MEMBER_FIELDS: FieldMap = {
  email: { label: "Email or user id", field: "member-who" },
  userId: { label: "Email or user id", field: "member-who" },
  role: { label: "Role", field: "member-role" },
};
export const INVITE_FIELDS: FieldMap = {
  email: { label: "Email", field: "invite-email" },
  role: { label: "Role", field: "invite-role" },
};

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
  /** A search of the members and invites (`?q=`): the words, and how many people and invites it read. */
  search?: { q: string; searched: number };
}

/** RoleSelect: the roles the user may grant, with the current one selected (and its refusal, if any, beside it). */
export function RoleSelect({ id, roles, selected, error }: { id: string; roles: Role[]; selected?: string; error?: FormError }) {
  return (
    <select id={id} name="role" required {...invalidAttrs(id, errorsAt(error, id))}>
      {roles.map((role) => (
        <option value={role} selected={role === selected}>
          {role}
        </option>
      ))}
    </select>
  );
}
