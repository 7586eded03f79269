import type { GroupRole } from "../../../db/schema";
import type { WriteCaller } from "../../../services/live-authority";

export type { WriteCaller } from "../../../services/live-authority";

/** What the writer's read of a caller found: the role in the network's group, and whether the session is live. */
export interface CallerStanding {
  role: GroupRole | null;
  live: boolean;
}

/** A caller's write the writer let through on kept authority, to be proven before it answers (write-runner.ts). */
export interface OwedCheck {
  caller: WriteCaller;
  groupId: string;
  /** What a caller without a role is told is not there (404). */
  what: string;
}
