import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accessPolicyRevisions, devices, type GroupRole, memberships, type networks, type nodes, users } from "../../../db/schema";
import type { AccessTestText } from "../../../core/access-policy/document-tests";
import type { AccessRuleText } from "../../../core/access-policy/rules";
import type { AccessSubject } from "../../../core/access-policy/selectors";

/** The access policy in force: a revision of access_policy_revisions (docs/access.md). */
export interface AccessDocument {
  revision: number;
  rules: AccessRuleText[];
  tests: AccessTestText[];
  createdBy: string | null;
  createdAt: string | null;
}

/** A PUT's (or a preview's) body: the whole document. */
export interface AccessPolicyInput {
  rules: AccessRuleText[];
  tests: AccessTestText[];
}

/** Whose a device node is, for `user:`, `role:` and `idp:` selectors. */
export interface NodeOwner {
  email: string;
  role: GroupRole | null;
  /** The owner's IdP groups: SCIM's by displayName and externalId (services/scim/groups.ts), and their OIDC claims. */
  idpGroups: string[];
}

/**
 * The names of the IdP groups a user is in, as one JSON array: read beside the owner in the same row, so a device
 * and its owner's groups come from one statement (and one snapshot) however many devices the network holds.
 */
const idpGroupNames = (userId: SQL) => sql<string>`(select json_group_array(name) from (
    select g.display_name as name from idp_group_members m join idp_groups g on g.id = m.idp_group_id where m.user_id = ${userId}
    union select g.external_id from idp_group_members m join idp_groups g on g.id = m.idp_group_id
      where m.user_id = ${userId} and g.external_id is not null
    union select c.name from oidc_group_claims c where c.user_id = ${userId}))`;

/** A row of deviceOwners or ownerOf as held. */
export const nodeOwner = (row: { email: string; role: GroupRole | null; idpGroups: string | null }): NodeOwner => ({
  email: row.email,
  role: row.role,
  idpGroups: row.idpGroups ? (JSON.parse(row.idpGroups) as string[]) : [],
});

export const EMPTY_ACCESS: AccessDocument = { revision: 0, rules: [], tests: [], createdBy: null, createdAt: null };

/**
 * Who owns each device node of the network (email, role in its group, a platform admin without one: null; IdP groups),
 * or only `userId`'s devices: read with the network, and again for one user when their role changes.
 */
export const deviceOwners = (db: Db, network: Pick<typeof networks.$inferSelect, "id" | "groupId">, userId?: string) =>
  db
    .select({ nodeId: devices.nodeId, email: users.email, role: memberships.role, idpGroups: idpGroupNames(sql`${users.id}`) })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, network.groupId)))
    .where(and(eq(devices.networkId, network.id), userId === undefined ? isNotNull(devices.userId) : eq(devices.userId, userId)));

/** The revision in force (the network row names it) and who owns each device node: two reads, any size. */
export async function loadAccessState(
  db: Db,
  network: typeof networks.$inferSelect,
): Promise<{ access: AccessDocument; owners: Map<string, NodeOwner> }> {
  const [revisionRows, ownerRows] = await db.batch([
    db
      .select()
      .from(accessPolicyRevisions)
      .where(and(eq(accessPolicyRevisions.networkId, network.id), eq(accessPolicyRevisions.revision, network.accessRevision))),
    deviceOwners(db, network),
  ]);
  const row = revisionRows[0];
  const access: AccessDocument = row
    ? {
        revision: row.revision,
        rules: row.rules as AccessRuleText[],
        tests: row.tests as AccessTestText[],
        createdBy: row.createdBy,
        createdAt: row.createdAt,
      }
    : EMPTY_ACCESS;
  return { access, owners: new Map(ownerRows.map((owner) => [owner.nodeId, nodeOwner(owner)])) };
}

/**
 * A user's email and role in the group (null: none, a platform admin's device), for a device's owner read
 * in the batch that writes the device.
 */
export const ownerOf = (db: Db, userId: string, groupId: string) =>
  db
    .select({ email: users.email, role: memberships.role, idpGroups: idpGroupNames(sql`${users.id}`) })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.groupId, groupId)))
    .where(eq(users.id, userId));

/** A node as access control sees it: address, tags, and for a device its owner. */
export function accessSubject(node: typeof nodes.$inferSelect, owners: ReadonlyMap<string, NodeOwner>): AccessSubject {
  const owner = owners.get(node.id);
  return {
    id: node.id,
    address: node.address,
    tags: node.tags,
    ownerEmail: owner?.email ?? null,
    ownerRole: owner?.role ?? null,
    ownerIdpGroups: owner?.idpGroups ?? [],
  };
}

export function accessSubjects(nodeRows: Iterable<typeof nodes.$inferSelect>, owners: ReadonlyMap<string, NodeOwner>): AccessSubject[] {
  return [...nodeRows].map((node) => accessSubject(node, owners));
}
