import { drizzle } from "drizzle-orm/d1";

/**
 * A drizzle handle over the request's D1 binding; never a module-global (bindings are per request). No
 * relational schema: nothing uses db.query, and building its config for 30 tables per request is waste.
 */
export const createDb = (d1: D1Database) => drizzle(d1, { casing: "snake_case" });

export type Db = ReturnType<typeof createDb>;
