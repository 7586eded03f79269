import type { WriteCaller } from "./write-caller";

/** Bounded: when full it starts over (a caller it dropped costs one read on its next write). */
const MAX_CALLERS = 1_000;

const keyOf = (caller: WriteCaller, groupId: string) => `${caller.userId} ${caller.sessionId ?? ""} ${caller.platformRole} ${groupId}`;

/**
 * Callers (user, session, claimed platform role) whose authority to manage this network a committed batch
 * proved: their next write takes it as held and skips the read that checks it (write-authority.ts). What
 * decides is still each write's batch, whose guard re-checks the session and the role as it runs
 * (acting-authority.ts): a caller signed out, demoted, removed or disabled since fails that guard (the
 * write runs again alone and is refused; the others in its batch commit), and is forgotten here. Only
 * callers a batch proved skip the read, so a stranger's writes are refused before they are staged beside
 * others'. A write that ends without a guarded batch (a refusal of its own, a no-op) reads the authority
 * before it answers (write-runner.ts).
 */
export class KeptAuthority {
  private readonly proven = new Set<string>();

  holds(caller: WriteCaller, groupId: string): boolean {
    return this.proven.has(keyOf(caller, groupId));
  }

  remember(caller: WriteCaller, groupId: string): void {
    if (this.proven.size >= MAX_CALLERS) this.proven.clear();
    this.proven.add(keyOf(caller, groupId));
  }

  /** Every entry of this user (any session, any group). */
  forget(userId: string): void {
    for (const key of this.proven) if (key.startsWith(`${userId} `)) this.proven.delete(key);
  }

  get size() {
    return this.proven.size;
  }
}
