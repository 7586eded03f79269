import { capture } from "../../../lib/write-result";
import { type ConfigWanted, readConfigs, readProbes } from "../memory/config-reads";
import type { RevisionWaiters } from "../memory/revision-waiters";
import type { WriteRunner } from "../runner/write-runner";

/** Config reads and long polls, served from the writer's memory (memory/config-reads.ts) outside its write queue. */
export class ConfigPolls {
  constructor(
    private readonly writes: WriteRunner,
    private readonly waiters: RevisionWaiters,
  ) {}

  read(networkId: string, wanted: ConfigWanted[]) {
    return capture(() => readConfigs(this.writes.memory, this.writes.db, networkId, wanted));
  }

  /**
   * A device's long poll in one trip: waits until the network's routing revision is no longer
   * `wanted.sinceRevision` (or `ms` pass), then reads the node's config (a delta where one can be computed).
   */
  awaitConfig(networkId: string, wanted: ConfigWanted & { sinceRevision: number }, ms: number) {
    return capture(async () => {
      await this.writes.memory.forRead(this.writes.db, networkId); // holds the network, so the waiter compares with it
      await this.waiters.wait(wanted.sinceRevision, ms);
      return readConfigs(this.writes.memory, this.writes.db, networkId, [wanted]);
    });
  }

  /**
   * Resolves once the network's routing revision is no longer `sinceRevision` (or `ms` pass): a gateway
   * agent's long poll waits on this beside its D1 check, so a failover reaches the agents at once.
   */
  awaitRoutingChange(networkId: string, sinceRevision: number, ms: number) {
    return capture(async () => {
      await this.writes.memory.forRead(this.writes.db, networkId);
      await this.waiters.wait(sinceRevision, ms);
    });
  }

  /** The forwarding probes these nodes are asked to run now: a report's probes are checked against them. */
  probes(networkId: string, nodeIds: string[]) {
    return capture(() => readProbes(this.writes.memory, this.writes.db, networkId, nodeIds));
  }
}
