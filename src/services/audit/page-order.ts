import { z } from "@hono/zod-openapi";
import { and, asc, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { fieldError } from "../../lib/errors";
import { afterCursor } from "../../lib/pagination";

/**
 * Logs (audit, deliveries) are read newest-first far more often than not, so they accept
 * `order=desc` beside the API's default creation order; cursors are the ones lib/pagination issues.
 */
export const OrderQuery = z.object({
  order: z
    .enum(["asc", "desc"])
    .default("asc")
    .openapi({ description: "asc: oldest first (default, like every list); desc: newest first" }),
});

type Columns = { createdAt: SQLiteColumn; id: SQLiteColumn };

function decode(cursor: string): [string, string] {
  try {
    const [createdAt, id] = JSON.parse(atob(cursor)) as unknown[];
    if (typeof createdAt === "string" && typeof id === "string") return [createdAt, id];
  } catch {
    // fall through
  }
  throw fieldError("cursor", "Not a cursor this API issued");
}

/** Rows strictly past the cursor in the requested direction, (createdAt, id) order. */
export function pastCursor(columns: Columns, cursor: string | undefined, order: "asc" | "desc"): SQL | undefined {
  if (order === "asc" || !cursor) return order === "asc" ? afterCursor(columns, cursor) : undefined;
  const [createdAt, id] = decode(cursor);
  return or(lt(columns.createdAt, createdAt), and(eq(columns.createdAt, createdAt), lt(columns.id, id)));
}

export const ordering = (columns: Columns, order: "asc" | "desc") =>
  order === "asc" ? [asc(columns.createdAt), asc(columns.id)] : [desc(columns.createdAt), desc(columns.id)];
