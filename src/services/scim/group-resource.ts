// An IdP group as a SCIM Group resource (RFC 7643 §4.2). Members are our users, named by id.
import type { idpGroups } from "../../db/schema";
import { SCIM_BASE, SCIM_SCHEMAS } from "../../lib/scim-wire";

export type IdpGroup = typeof idpGroups.$inferSelect;
export interface GroupMember {
  userId: string;
  email: string;
}

export function toScimGroup(group: IdpGroup, members: GroupMember[] | undefined, origin: string) {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: group.id,
    displayName: group.displayName,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    ...(members
      ? {
          members: members.map((member) => ({
            value: member.userId,
            display: member.email,
            $ref: `${origin}${SCIM_BASE}/Users/${member.userId}`,
          })),
        }
      : {}),
    meta: {
      resourceType: "Group" as const,
      created: group.createdAt,
      lastModified: group.updatedAt,
      location: `${origin}${SCIM_BASE}/Groups/${group.id}`,
    },
  };
}
