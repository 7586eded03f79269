import { drizzle } from "drizzle-orm/d1";

const open = (d1: D1Database) => drizzle(d1, { casing: "snake_case" });

export type Db = ReturnType<typeof open>;

/** The handles made so far, by the binding object they wrap. */
const handles = new WeakMap<D1Database, Db>();

/**
 * A drizzle handle over a D1 binding: one per binding object, not per request. The handle keeps no request's
 * state, but its casing cache (each column's snake_case name) lives in it, and building that again on every
 * request was a fifth of a heartbeat's CPU (bench/cpu-profile.ts). A binding that is a new object (a metering
 * wrapper, a test's counting D1) gets a handle of its own. No relational schema: nothing uses db.query.
 */
export function createDb(d1: D1Database): Db {
  let db = handles.get(d1);
  if (!db) {
    db = open(d1);
    handles.set(d1, db);
  }
  return db;
}
