import type { AuditContext } from "../../../services/audit/audit-trail";
import type { WriterContext } from "../commit";
import type { DirectoryReads } from "../directory-reads";
import type { HotStore } from "../hot/hot-store";
import type { Staged } from "./combined-commits";

/** What a writer adds around each write: after it (waking long polls) and the clocks it may keep (pools, access expiry). */
export interface WriterHooks {
  afterWrite?(): void;
  schedulePoolChecks?(networkId: string, needed: boolean): Promise<void>;
  scheduleAccessExpiry?(networkId: string, at: number | null): Promise<void>;
  /** The writer's hot state, for writes that remove what it holds rows of. */
  hot?: HotStore;
  /** Concurrent writes commit together (combined-commits.ts): a network's writer, which holds its network. */
  combine?: boolean;
}

export type Task<T> = (ctx: WriterContext) => Promise<T>;

/** One write asked of the runner: the request it serves, what it does, and its directory reads. */
export interface Job<T> {
  audit: AuditContext | undefined;
  task: (ctx: WriterContext) => Promise<T>;
  directory: DirectoryReads;
}

/** The write running in the queue: the combined batches' failures counted when it began, and what it staged. */
export interface Running {
  epoch: number;
  staged: Staged | null;
}
