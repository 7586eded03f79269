import type { Db } from "./client";

/**
 * A statement built once per D1 handle (db/client.ts keeps one per binding) and bound per call: drizzle builds a
 * query's SQL anew each time it runs otherwise, and for the hot lookups (a device's or an agent's credential, a
 * report's probed members) that building was a large share of the request's CPU (bench/cpu-profile.ts).
 * Values go in as `sql.placeholder(name)`; a list as JSON through `json_each`.
 */
export function preparedPer<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
