import type { Db } from "../../db/client";
import { users } from "../../db/schema";

/** Readiness costs exactly one single-row D1 read (also the benchmark's one-read baseline); throws when D1 does not answer. */
export async function checkDatabase(db: Db) {
  await db.select({ id: users.id }).from(users).limit(1).get();
}
