import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** A drizzle handle over the request's D1 binding; never a module-global (bindings are per request). */
export const createDb = (d1: D1Database) => drizzle(d1, { schema, casing: "snake_case" });

export type Db = ReturnType<typeof createDb>;
