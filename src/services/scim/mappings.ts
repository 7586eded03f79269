// IdP group mappings (platform admins): membership of an IdP group gives a role in one of our groups. Making or
// removing one re-applies the directory's roles of everyone in the IdP groups it names.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type GroupRole, groups, idpGroupMappings } from "../../db/schema";
import { isUniqueViolation } from "../../lib/db-errors";
import type { Env } from "../../lib/env";
import { conflict, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import { auditStatement } from "../audit/audit-trail";
import { applyDirectoryRoles } from "./directory-roles";
import { membersOfGroupsNamed } from "./groups";
import { type DirectoryWrite, directoryGuard, refusedIfRevoked } from "./scim-guard";

export type IdpGroupMapping = typeof idpGroupMappings.$inferSelect;

const mappingEvent = (action: string, mapping: IdpGroupMapping) => ({
  action,
  resourceId: mapping.id,
  groupId: mapping.groupId,
  networkId: null,
});

export async function createMapping(
  env: Env,
  db: Db,
  input: { idpGroup: string; groupId: string; role: GroupRole },
  write: DirectoryWrite,
) {
  const group = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, input.groupId)).get();
  if (!group) throw notFound("Group");
  const mapping: IdpGroupMapping = { id: newId("idm"), ...input, createdAt: nowIso() };
  await refusedIfRevoked(
    db.batch([
      directoryGuard(db, write),
      db.insert(idpGroupMappings).values(mapping),
      auditStatement(db, write.audit, mappingEvent("idp-mapping.created", mapping)),
    ]),
  ).catch((error) => {
    if (isUniqueViolation(error))
      throw conflict(`The IdP group "${input.idpGroup}" is already mapped onto this group; delete that mapping to change its role`);
    throw error;
  });
  await applyDirectoryRoles(env, db, await membersOfGroupsNamed(db, mapping.idpGroup), write);
  return mapping;
}

/** One page plus one row (toPage tells whether another follows), oldest first. */
export const listMappings = (db: Db, query: { limit: number; cursor?: string }) =>
  db
    .select()
    .from(idpGroupMappings)
    .where(afterCursor(idpGroupMappings, query.cursor))
    .orderBy(asc(idpGroupMappings.createdAt), asc(idpGroupMappings.id))
    .limit(query.limit + 1)
    .all();

export async function deleteMapping(env: Env, db: Db, id: string, write: DirectoryWrite): Promise<void> {
  const mapping = await db.select().from(idpGroupMappings).where(eq(idpGroupMappings.id, id)).get();
  if (!mapping) throw notFound("IdP group mapping");
  await refusedIfRevoked(
    db.batch([
      directoryGuard(db, write),
      db.delete(idpGroupMappings).where(eq(idpGroupMappings.id, id)),
      auditStatement(db, write.audit, mappingEvent("idp-mapping.deleted", mapping)),
    ]),
  );
  await applyDirectoryRoles(env, db, await membersOfGroupsNamed(db, mapping.idpGroup), write);
}
