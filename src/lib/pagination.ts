import { z } from "@hono/zod-openapi";
import { and, eq, gt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { fieldError } from "./errors";

export const MAX_PAGE_SIZE = 200;

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50).openapi({ description: "Page size, 1-200 (default 50)" }),
  cursor: z.string().max(256).optional().openapi({ description: "The nextCursor of the previous page" }),
});

export const pageOf = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() }).openapi(name);

export type CursorPosition = { createdAt: string; id: string };

const encode = (position: CursorPosition) => btoa(JSON.stringify([position.createdAt, position.id])).replaceAll("=", "");

/** Where a cursor points (a 422 for one this API did not issue): for pages read outside D1. */
export function cursorPosition(cursor: string): CursorPosition {
  try {
    const [createdAt, id] = JSON.parse(atob(cursor)) as unknown[];
    if (typeof createdAt === "string" && typeof id === "string") return { createdAt, id };
  } catch {
    // fall through to the validation error below
  }
  throw fieldError("cursor", "Not a cursor this API issued");
}

/** Rows strictly after the cursor in (createdAt, id) order: stable even when timestamps tie. */
export function afterCursor(columns: { createdAt: SQLiteColumn; id: SQLiteColumn }, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const position = cursorPosition(cursor);
  return or(gt(columns.createdAt, position.createdAt), and(eq(columns.createdAt, position.createdAt), gt(columns.id, position.id)));
}

/** Callers fetch limit + 1 rows; the extra row only tells whether another page exists. */
export function toPage<Row extends CursorPosition, Item>(rows: Row[], limit: number, present: (row: Row) => Item) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(present),
    nextCursor: rows.length > limit && last ? encode(last) : null,
  };
}
