import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

/**
 * `insert into <table> (<every column>) select * from (values <rows>) where <condition>`: rows written
 * only if the condition holds when the statement runs. Inside a `db.batch` that makes an authorization
 * decided by the same transaction as the write it guards (D1 has no interactive transactions). Values are
 * encoded by their columns (JSON, booleans) exactly as `values()` would; each row must name every column.
 * Mind D1's 100 bound parameters per statement (columns x rows + the condition's).
 */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, rows: T["$inferInsert"] | T["$inferInsert"][], condition: SQL) {
  // The column list drizzle writes for INSERT … SELECT: every column it may insert, in table order.
  const columns = Object.entries(getTableColumns(table)).filter(
    ([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert(),
  );
  const tuples = (Array.isArray(rows) ? rows : [rows]).map(
    (row) =>
      sql`(${sql.join(
        columns.map(([key, column]) => sql.param((row as Record<string, unknown>)[key] ?? null, column)),
        sql`, `,
      )})`,
  );
  // The WHERE is also what lets SQLite parse an ON CONFLICT clause after an INSERT … SELECT.
  return db.insert(table).select(sql`select * from (values ${sql.join(tuples, sql`, `)}) where ${condition}`);
}
