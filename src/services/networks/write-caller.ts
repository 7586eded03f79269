import { sql } from "drizzle-orm";
import type { GroupRole } from "../../db/schema";
import { nowIso } from "../../lib/ids";
import type { UserPrincipal } from "../../lib/types";
import { sessionLive } from "../live-authority";

/**
 * Who asks for a write the writer authorises itself: what services/access.ts decides a role from, and the
 * session it came with. With `sessionId` the writer checks the session too, in the read that finds the role:
 * routes on the `userWrites` guard leave it to the writer (middleware/auth.ts).
 */
export type WriteCaller = Pick<UserPrincipal, "userId" | "platformRole"> & { sessionId?: string };

/** What the writer's read of a caller found: the role in the network's group, and whether the session is live. */
export interface CallerStanding {
  role: GroupRole | null;
  live: boolean;
}

/**
 * A column: the caller's session is live (1), or the caller named none (the Worker checked it). Named: D1's
 * batch answers rows as objects, and a column named `1` would sort first among their keys.
 */
export const callerLive = (caller: WriteCaller) =>
  (caller.sessionId ? sql`${sessionLive(caller.userId, caller.sessionId, caller.platformRole, nowIso())}` : sql`1`)
    .mapWith(Boolean)
    .as("caller_live");

/** A caller's write the writer let through on kept authority, to be proven before it answers (write-runner.ts). */
export interface OwedCheck {
  caller: WriteCaller;
  groupId: string;
  /** What a caller without a role is told is not there (404). */
  what: string;
}
