// One page of a SCIM list (RFC 7644 §3.4.2.4: 1-based startIndex, count as the page size) and the total its
// filter matches, oldest first: the same for Users and Groups.
import { asc, count, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { idpGroups, users } from "../../db/schema";
import { type EqualityFilter, filterWhere } from "./filters";

type Listed = typeof users | typeof idpGroups;

export async function listPage<T extends Listed>(
  db: Db,
  table: T,
  filter: EqualityFilter,
  columns: Record<string, (value: string) => SQL>,
  startIndex: number,
  limit: number,
): Promise<{ total: number; rows: T["$inferSelect"][] }> {
  if (filter.none) return { total: 0, rows: [] };
  const where = filterWhere(filter, columns);
  // One table at a time: drizzle's select over a union of tables does not narrow, so the rows are typed here.
  const from = table as typeof users;
  const [rows, [total]] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(from)
          .where(where)
          .orderBy(asc(from.createdAt), asc(from.id))
          .limit(limit)
          .offset(startIndex - 1)
          .all(),
    db.select({ n: count() }).from(from).where(where).all(),
  ]);
  return { total: total?.n ?? 0, rows: rows as T["$inferSelect"][] };
}
