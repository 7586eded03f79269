// SCIM Groups: the identity provider's groups and who is in them. A change to a group that a mapping names
// (by displayName or externalId) re-applies the directory's roles of every person it touched (directory-roles.ts).
import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { idpGroupMappings, idpGroupMembers, idpGroups, oidcGroupClaims, users } from "../../db/schema";
import { chunks } from "../../lib/chunks";
import { isUniqueViolation } from "../../lib/db-errors";
import type { Env } from "../../lib/env";
import { notFound, scimRefusal, uniquenessConflict } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { auditStatement } from "../audit/audit-trail";
import { platformEvent } from "../audit/audited-batch";
import { refreshOwnersOf } from "../networks/device-lifecycle";
import { applyDirectoryRoles } from "./directory-roles";
import type { EqualityFilter } from "./filters";
import { listPage } from "./listing";
import type { GroupMember, IdpGroup } from "./group-resource";
import type { GroupChange } from "./group-patch";
import { refusedIfRevoked, type DirectoryWrite, directoryGuard } from "./scim-guard";

export const GROUP_FILTER_ATTRIBUTES = ["displayname", "externalid", "id"] as const;

const FILTER_COLUMNS: Record<(typeof GROUP_FILTER_ATTRIBUTES)[number], (value: string) => SQL> = {
  displayname: (value) => eq(idpGroups.displayName, value),
  externalid: (value) => eq(idpGroups.externalId, value),
  id: (value) => eq(idpGroups.id, value),
};

export async function findIdpGroup(db: Db, id: string): Promise<IdpGroup> {
  const group = await db.select().from(idpGroups).where(eq(idpGroups.id, id)).get();
  if (!group) throw notFound("Group");
  return group;
}

export const groupMembers = (db: Db, groupId: string): Promise<GroupMember[]> =>
  db
    .select({ userId: idpGroupMembers.userId, email: users.email })
    .from(idpGroupMembers)
    .innerJoin(users, eq(users.id, idpGroupMembers.userId))
    .where(eq(idpGroupMembers.idpGroupId, groupId))
    .orderBy(asc(idpGroupMembers.createdAt), asc(idpGroupMembers.userId))
    .all();

/** Members of each of `groupIds` (a page of groups): one read for up to 90 groups, not one a group. */
export async function membersOfGroups(db: Db, groupIds: string[]): Promise<Map<string, GroupMember[]>> {
  const members = new Map(groupIds.map((id) => [id, [] as GroupMember[]]));
  for (const part of chunks(groupIds, 90)) {
    const rows = await db
      .select({ groupId: idpGroupMembers.idpGroupId, userId: idpGroupMembers.userId, email: users.email })
      .from(idpGroupMembers)
      .innerJoin(users, eq(users.id, idpGroupMembers.userId))
      .where(inArray(idpGroupMembers.idpGroupId, part))
      .orderBy(asc(idpGroupMembers.createdAt), asc(idpGroupMembers.userId))
      .all();
    for (const { groupId, ...member } of rows) members.get(groupId)?.push(member);
  }
  return members;
}

export const listIdpGroups = (db: Db, filter: EqualityFilter, startIndex: number, limit: number) =>
  listPage(db, idpGroups, filter, FILTER_COLUMNS, startIndex, limit);

/** Every id must name a user: a member the directory never provisioned is refused, not dropped. */
async function assertUsersExist(db: Db, ids: Set<string>) {
  for (const part of chunks([...ids], 90)) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, part)).all();
    const missing = part.filter((id) => !found.some((row) => row.id === id));
    if (missing.length > 0)
      throw scimRefusal("invalidValue", `No user ${missing.slice(0, 5).join(", ")}: provision the user before adding them to a group`);
  }
}

/** Whether a mapping names the group by either of its names: only then can its members' roles change. */
async function isMapped(db: Db, ...groups: (Pick<IdpGroup, "displayName" | "externalId"> | undefined)[]) {
  const names = groups.flatMap((group) => (group ? [group.displayName, group.externalId] : [])).filter((name): name is string => !!name);
  if (names.length === 0) return false;
  return !!(await db
    .select({ id: idpGroupMappings.id })
    .from(idpGroupMappings)
    .where(inArray(idpGroupMappings.idpGroup, names))
    .limit(1)
    .get());
}

export async function createIdpGroup(
  env: Env,
  db: Db,
  input: { displayName: string; externalId: string | null; members: string[] },
  write: DirectoryWrite,
) {
  const members = new Set(input.members);
  await assertUsersExist(db, members);
  const now = nowIso();
  const group: IdpGroup = {
    id: newId("idg"),
    displayName: input.displayName,
    externalId: input.externalId,
    createdAt: now,
    updatedAt: now,
  };
  const rows = [...members].map((userId) => ({ idpGroupId: group.id, userId, createdAt: now }));
  await commit(
    db,
    write,
    [db.insert(idpGroups).values(group), ...chunks(rows, 30).map((part) => db.insert(idpGroupMembers).values(part))],
    platformEvent("idp-group.created", group.id),
  );
  if (await isMapped(db, group)) await applyDirectoryRoles(env, db, members, write);
  await refreshOwnersOf(env, db, members);
  return group;
}

/** PUT (every attribute) or PATCH (a GroupChange): renames, and members in and out, in one batch. */
export async function changeIdpGroup(env: Env, db: Db, group: IdpGroup, change: GroupChange, write: DirectoryWrite): Promise<IdpGroup> {
  const current = new Set((await groupMembers(db, group.id)).map((member) => member.userId));
  const target = new Set([...(change.members ?? current), ...change.add].filter((id) => !change.remove.has(id)));
  const added = [...target].filter((id) => !current.has(id));
  const removed = [...current].filter((id) => !target.has(id));
  await assertUsersExist(db, new Set(added));
  const now = nowIso();
  const next: IdpGroup = {
    ...group,
    displayName: change.displayName ?? group.displayName,
    externalId: change.externalId === undefined ? group.externalId : change.externalId,
    updatedAt: now,
  };
  const statements: BatchItem<"sqlite">[] = [
    db
      .update(idpGroups)
      .set({ displayName: next.displayName, externalId: next.externalId, updatedAt: now })
      .where(eq(idpGroups.id, group.id)),
    ...chunks(
      added.map((userId) => ({ idpGroupId: group.id, userId, createdAt: now })),
      30,
    ).map((part) => db.insert(idpGroupMembers).values(part).onConflictDoNothing()),
    ...chunks(removed, 90).map((part) =>
      db.delete(idpGroupMembers).where(and(eq(idpGroupMembers.idpGroupId, group.id), inArray(idpGroupMembers.userId, part))),
    ),
  ];
  await commit(db, write, statements, platformEvent("idp-group.updated", group.id));
  const renamed = next.displayName !== group.displayName || next.externalId !== group.externalId;
  const touched = renamed ? [...target, ...removed] : [...added, ...removed];
  if (await isMapped(db, group, next)) await applyDirectoryRoles(env, db, touched, write);
  // `idp:` selectors name the group: its members' devices follow whether or not a mapping names it.
  await refreshOwnersOf(env, db, touched);
  return next;
}

export async function deleteIdpGroup(env: Env, db: Db, group: IdpGroup, write: DirectoryWrite): Promise<void> {
  const members = (await groupMembers(db, group.id)).map((member) => member.userId);
  await commit(db, write, [db.delete(idpGroups).where(eq(idpGroups.id, group.id))], platformEvent("idp-group.deleted", group.id));
  if (await isMapped(db, group)) await applyDirectoryRoles(env, db, members, write);
  await refreshOwnersOf(env, db, members);
}

async function commit(db: Db, write: DirectoryWrite, statements: BatchItem<"sqlite">[], event: ReturnType<typeof platformEvent>) {
  await refusedIfRevoked(db.batch([directoryGuard(db, write), ...statements, auditStatement(db, write.audit, event)])).catch((error) => {
    if (isUniqueViolation(error)) throw uniquenessConflict("A group with this displayName already exists");
    throw error;
  });
}

/** Everyone in the IdP groups a mapping's name matches, for re-applying their roles when the mapping changes. */
export async function membersOfGroupsNamed(db: Db, name: string): Promise<string[]> {
  const [scim, claimed] = await db.batch([
    db
      .selectDistinct({ userId: idpGroupMembers.userId })
      .from(idpGroupMembers)
      .innerJoin(idpGroups, eq(idpGroups.id, idpGroupMembers.idpGroupId))
      .where(or(eq(idpGroups.displayName, name), eq(idpGroups.externalId, name))),
    // Those whose last OIDC sign-in claimed it (services/scim/oidc-groups.ts).
    db.select({ userId: oidcGroupClaims.userId }).from(oidcGroupClaims).where(eq(oidcGroupClaims.name, name)),
  ]);
  return [...new Set([...scim, ...claimed].map((row) => row.userId))];
}
