import type { Env } from "../../lib/env";
import { NatClock } from "./clocks/nat-clock";
import { PresenceClock } from "./clocks/presence-clock";
import { PoolClock } from "./clocks/pool-clock";
import { WriterAlarm } from "./clocks/writer-alarm";
import { NetworkHot } from "./hot/network-hot";
import { RevisionWaiters } from "./memory/revision-waiters";
import { AccessPolicies } from "./rpc/access-policies";
import { ConfigPolls } from "./rpc/config-polls";
import { HotReports } from "./rpc/hot-reports";
import { WriteRunner } from "./runner/write-runner";

/** What a network's object is made of, wired once when it starts (network-writer.ts holds one). */
export class NetworkParts {
  /** The object's one alarm (writer-alarm.ts), at the earliest of the pool checks and the next access rule expiry. */
  readonly alarmClock: WriterAlarm;
  readonly clock: PoolClock;
  /** Devices long-polling for a new routing revision; woken after every write. */
  readonly waiters: RevisionWaiters;
  readonly writes: WriteRunner;
  /** The network's hot state in this object's SQLite (hot/): heartbeats, tunnels; D1 keeps the directory. */
  readonly hot: NetworkHot;
  readonly reports: HotReports;
  readonly configs: ConfigPolls;
  readonly access: AccessPolicies;
  /** Paths across NAT: what reports say of tunnels and endpoints, and the clock that moves pairs (nat-clock.ts). */
  readonly nat: NatClock;
  /** Its device nodes' presence and drift, judged from the hot state; transitions and /metrics figures go to D1. */
  readonly presence: PresenceClock;

  constructor(state: DurableObjectState, env: Env) {
    this.alarmClock = new WriterAlarm(state.storage);
    this.clock = new PoolClock(this.alarmClock);
    this.hot = new NetworkHot(state.storage.sql);
    this.writes = new WriteRunner(env, state, {
      hot: this.hot.store,
      afterWrite: () => this.waiters.wake(),
      schedulePoolChecks: (networkId, needed) => this.clock.schedule(networkId, needed),
      scheduleAccessExpiry: (networkId, at) => this.alarmClock.set(networkId, "accessExpiry", at),
      combine: true,
    });
    this.waiters = new RevisionWaiters(() => this.writes.memory.heldRoutingRevision());
    this.configs = new ConfigPolls(this.writes, this.waiters);
    this.access = new AccessPolicies(this.writes);
    this.nat = new NatClock(env, this.writes, this.alarmClock);
    this.presence = new PresenceClock(env, state, this.writes, this.hot, this.alarmClock);
    this.reports = new HotReports(this.writes, this.hot, this.nat, this.presence);
  }
}
