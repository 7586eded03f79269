import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { groups, memberships, networks, type GroupRole } from "../../db/schema";
import { afterCursor } from "../../lib/pagination";
import type { User } from "./users";

/** The groups a user belongs to with the role in each, a page past `cursor` (limit + 1 rows; `id` is the cursor key). */
export function groupsOfUser(db: Db, user: User, limit: number, cursor: string | undefined) {
  return db
    .select({
      id: memberships.groupId,
      groupId: memberships.groupId,
      name: groups.name,
      role: memberships.role,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, user.id), afterCursor({ createdAt: memberships.createdAt, id: memberships.groupId }, cursor)))
    .orderBy(asc(memberships.createdAt), asc(memberships.groupId))
    .limit(limit + 1)
    .all();
}

const networkColumns = {
  id: networks.id,
  createdAt: networks.createdAt,
  networkId: networks.id,
  name: networks.name,
  cidr: networks.cidr,
  groupId: networks.groupId,
  groupName: groups.name,
};

export interface NetworkAccess {
  id: string;
  createdAt: string;
  networkId: string;
  name: string;
  cidr: string;
  groupId: string;
  groupName: string;
  role: GroupRole;
  via: "membership" | "platform_admin";
}

/**
 * Every network a user reaches and the role it acts with there, a page past `cursor` (limit + 1 rows).
 * Mirrors services/authorization.ts: platform admins act as owners everywhere; others through their memberships.
 */
export async function accessOfUser(db: Db, user: User, limit: number, cursor: string | undefined): Promise<NetworkAccess[]> {
  const order = [asc(networks.createdAt), asc(networks.id)];
  const after = afterCursor(networks, cursor);
  if (user.platformRole === "admin") {
    const rows = await db
      .select(networkColumns)
      .from(networks)
      .innerJoin(groups, eq(groups.id, networks.groupId))
      .where(after)
      .orderBy(...order)
      .limit(limit + 1)
      .all();
    return rows.map((row) => ({ ...row, role: "owner" as const, via: "platform_admin" as const }));
  }
  const rows = await db
    .select({ ...networkColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(networks, eq(networks.groupId, memberships.groupId))
    .innerJoin(groups, eq(groups.id, networks.groupId))
    .where(and(eq(memberships.userId, user.id), after))
    .orderBy(...order)
    .limit(limit + 1)
    .all();
  return rows.map((row) => ({ ...row, via: "membership" as const }));
}
