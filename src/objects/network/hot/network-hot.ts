import type { Db } from "../../../db/client";
import { AppliedConfigs } from "./applied-configs";
import { HotStore } from "./hot-store";
import { importFromD1 } from "./import-from-d1";

/**
 * The writer's hot state (hot-store.ts), opened once per object: the first use imports what an older
 * deployment left in D1 (import-from-d1.ts); every later use finds it ready. A failed import is retried by the
 * next use rather than remembered.
 */
export class NetworkHot {
  readonly store: HotStore;
  /** The config each node runs (applied-configs.ts), beside its reports. */
  readonly configs: AppliedConfigs;
  private ready: Promise<void> | null = null;

  constructor(sql: SqlStorage) {
    this.store = new HotStore(sql);
    this.configs = new AppliedConfigs(sql);
  }

  async open(db: Db, networkId: string): Promise<HotStore> {
    this.ready ??= importFromD1(db, this.store, networkId).catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    await this.ready;
    return this.store;
  }
}
