// The directory's word on a person's roles (DESIGN.md "Identity from the organisation's directory"): for each
// of our groups, the highest role the IdP groups they are in are mapped to. Only memberships whose source is
// `idp` are added, changed or removed here; one a person added by hand stays as it is. Each person's changes
// commit in one batch behind the SCIM token's guard, with an audit row each; devices leave a group they lost
// after that commit, as a removal by hand does (identity/members.ts).
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { type GroupRole, memberships } from "../../db/schema";
import type { Env } from "../../lib/env";
import { nowIso } from "../../lib/ids";
import { auditStatement } from "../audit/audit-trail";
import { forgetLiveSessions } from "../auth/session-cache";
import { revokeAllSessions } from "../auth/sign-in";
import { assertNoHopDevices, refreshDeviceOwners, removeDevicesOf } from "../networks/device-lifecycle";
import { refusedIfRevoked, type DirectoryWrite, directoryGuard } from "./scim-guard";

const RANK: Record<GroupRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Per our group, the highest role `userId`'s IdP groups are mapped to (SCIM groups by displayName or externalId, OIDC claims by name). */
export async function mappedRoles(db: Db, userId: string): Promise<Map<string, GroupRole>> {
  // SCIM's groups (by either name) and the names their last OIDC sign-in claimed (services/scim/oidc-groups.ts).
  const rows = await db.all<{ group_id: string; role: GroupRole }>(sql`
    select m.group_id, m.role from idp_group_members gm
    join idp_groups g on g.id = gm.idp_group_id
    join idp_group_mappings m on m.idp_group = g.display_name or m.idp_group = g.external_id
    where gm.user_id = ${userId}
    union all
    select m.group_id, m.role from oidc_group_claims c join idp_group_mappings m on m.idp_group = c.name where c.user_id = ${userId}`);
  const roles = new Map<string, GroupRole>();
  for (const row of rows) {
    const held = roles.get(row.group_id);
    if (!held || RANK[row.role] > RANK[held]) roles.set(row.group_id, row.role);
  }
  return roles;
}

/** The group keeps another owner without this membership (the directory never leaves a group ownerless). */
const anotherOwnerRemains = (groupId: string, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from memberships o where o.group_id = ${groupId} and o.role = 'owner' and o.user_id <> ${userId}))`;

const idpMembership = (groupId: string, userId: string) =>
  and(eq(memberships.groupId, groupId), eq(memberships.userId, userId), eq(memberships.source, "idp"));

/** Applies the directory's roles to each of `userIds`, one person (one batch) at a time. */
export async function applyDirectoryRoles(env: Env, db: Db, userIds: Iterable<string>, write: DirectoryWrite): Promise<void> {
  for (const userId of new Set(userIds)) await applyFor(env, db, userId, write);
}

async function applyFor(env: Env, db: Db, userId: string, write: DirectoryWrite): Promise<void> {
  const [desired, current] = await Promise.all([
    mappedRoles(db, userId),
    db.select().from(memberships).where(eq(memberships.userId, userId)).all(),
  ]);
  const now = nowIso();
  const statements: BatchItem<"sqlite">[] = [];
  const losing: string[] = [];
  const keeping: string[] = [];
  const audited = (action: string, groupId: string, onlyIf: SQL) =>
    auditStatement(db, write.audit, { action, resourceId: userId, groupId, networkId: null }, now, onlyIf);
  for (const [groupId, role] of desired) {
    const held = current.find((membership) => membership.groupId === groupId);
    if (!held) {
      const absent = sql`not exists (select 1 from memberships where group_id = ${groupId} and user_id = ${userId})`;
      statements.push(audited("member.added", groupId, absent));
      statements.push(
        db.insert(memberships).values({ groupId, userId, role, source: "idp", createdAt: now, updatedAt: now }).onConflictDoNothing(),
      );
      keeping.push(groupId);
    } else if (held.source === "idp" && held.role !== role) {
      const changes = sql`exists (select 1 from memberships where group_id = ${groupId} and user_id = ${userId} and source = 'idp' and ${anotherOwnerRemains(groupId, userId)})`;
      statements.push(audited("member.role_changed", groupId, changes));
      statements.push(
        db
          .update(memberships)
          .set({ role, updatedAt: now })
          .where(and(idpMembership(groupId, userId), anotherOwnerRemains(groupId, userId))),
      );
      (role === "viewer" ? losing : keeping).push(groupId);
    }
  }
  for (const held of current) {
    if (held.source !== "idp" || desired.has(held.groupId)) continue;
    const goes = sql`exists (select 1 from memberships where group_id = ${held.groupId} and user_id = ${userId} and source = 'idp' and ${anotherOwnerRemains(held.groupId, userId)})`;
    statements.push(audited("member.removed", held.groupId, goes));
    statements.push(db.delete(memberships).where(and(idpMembership(held.groupId, userId), anotherOwnerRemains(held.groupId, userId))));
    losing.push(held.groupId);
  }
  if (statements.length === 0) return;
  // Leaving the last group the directory gave, with none given by hand: deprovisioned, sessions end with it.
  const leavesAll = desired.size === 0 && current.length > 0 && current.every((membership) => membership.source === "idp");
  if (leavesAll) statements.push(revokeAllSessions(db, userId, "directory_groups_left"));
  for (const groupId of losing) await assertNoHopDevices(db, userId, groupId);
  await refusedIfRevoked(db.batch([directoryGuard(db, write), ...statements]));
  if (leavesAll) forgetLiveSessions();
  // Listed after the change committed: an enrolment committed before is found here, one after is refused.
  for (const groupId of losing) await removeDevicesOf(env, db, userId, groupId);
  for (const groupId of keeping) await refreshDeviceOwners(env, db, userId, groupId);
}
