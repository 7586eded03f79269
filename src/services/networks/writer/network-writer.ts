import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../../lib/env";
import type { AuditContext } from "../../audit/audit-trail";
import type { RecordInput } from "../dns";
import type { ConfigWanted } from "../memory/config-reads";
import { RevisionWaiters } from "../memory/revision-waiters";
import type { AccessPolicyInput } from "../access/access-state";
import { refreshDeviceOwner } from "../operations/device-owners";
import * as devices from "../operations/devices";
import * as dnsRecords from "../operations/dns-records";
import * as gatewayAgent from "../operations/gateway-agent";
import * as pools from "../operations/gateway-pools";
import { NetworkHot } from "../hot/network-hot";
import type { AgentNodeReport, ReportedHeartbeat } from "../operations/heartbeats";
import type { TunnelQuery } from "../hot/tunnel-query";
import { AccessPolicies } from "./access-policies";
import { PolicyWrites } from "./policy-writes";
import { ConfigPolls } from "./config-polls";
import { HotReports } from "./hot-reports";
import { relayedPairsOf } from "../views/node-paths";
import { NAT_CHECK_MS, NatClock } from "./nat-clock";
import { PRESENCE_CHECK_MS, PresenceClock } from "../hot/presence-clock";
import * as networks from "../operations/networks";
import * as nodes from "../operations/nodes";
import type * as policies from "../operations/policies";
import type { NodeRow } from "../state";
import type { WriteCaller } from "../write-access";
import { evaluatePoolsNow } from "../operations/pool-failover";
import { viaGroupWriter } from "./group-writer";
import { POOL_CHECK_MS, PoolClock } from "./pool-clock";
import { typedStub } from "./typed-stub";
import { WriteRunner } from "./write-runner";
import { WriterAlarm } from "./writer-alarm";
import { statsOf, type WriterStats } from "./writer-stats";
import type { WriterContext } from "../commit";

/**
 * The single writer of one network (one instance per network, named by its id): every change to its
 * nodes, addresses, policies, pools, DNS records and devices runs here, one at a time, to one commit
 * (services/networks/commit.ts). One typed RPC method per write, each delegating to its operation
 * (services/networks/operations/): a new write is an operation and a method here, nothing else. Every
 * method answers a WriteResult (an API error crosses RPC as data; callers `unwrap` it). `audit` is the
 * request a write serves (its audit row commits with the change); without it the change is the system's own.
 * It holds the network in memory (services/networks/memory), so config reads and long polls come here too.
 */
export class NetworkWriter extends DurableObject<Env> {
  /** The object's one alarm (writer-alarm.ts), at the earliest of the pool checks and the next access rule expiry. */
  private readonly alarmClock = new WriterAlarm(this.ctx.storage);
  private readonly clock = new PoolClock(this.alarmClock);
  /** Devices long-polling for a new routing revision; woken after every write. */
  private readonly waiters: RevisionWaiters;
  private readonly writes: WriteRunner;
  /** The network's hot state in this object's SQLite (hot/): heartbeats, tunnels; D1 keeps the directory. */
  private readonly hot: NetworkHot;
  private readonly reports: HotReports;
  private readonly configs: ConfigPolls;
  private readonly access: AccessPolicies;
  private readonly policies: PolicyWrites;
  /** Paths across NAT: what reports say of tunnels and endpoints, and the clock that moves pairs (nat-clock.ts). */
  private readonly nat: NatClock;
  /** Its device nodes' presence and drift, judged from the hot state; transitions and /metrics figures go to D1. */
  private readonly presence: PresenceClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.hot = new NetworkHot(ctx.storage.sql);
    this.writes = new WriteRunner(env, ctx, {
      hot: this.hot.store,
      afterWrite: () => this.waiters.wake(),
      schedulePoolChecks: (networkId, needed) => this.clock.schedule(networkId, needed),
      scheduleAccessExpiry: (networkId, at) => this.alarmClock.set(networkId, "accessExpiry", at),
      combine: true,
    });
    this.waiters = new RevisionWaiters(() => this.writes.memory.heldRoutingRevision());
    this.configs = new ConfigPolls(this.writes, this.waiters);
    this.access = new AccessPolicies(this.writes);
    this.policies = new PolicyWrites(this.writes);
    this.nat = new NatClock(env, this.writes, this.alarmClock);
    this.presence = new PresenceClock(env, ctx, this.writes, this.hot, this.alarmClock);
    this.reports = new HotReports(this.writes, this.hot, this.nat, this.presence);
  }

  updateNetwork(networkId: string, groupId: string, changes: networks.NetworkChanges, audit?: AuditContext) {
    const inGroup = (ctx: WriterContext) => viaGroupWriter(ctx, this.env, groupId, networkId, changes, audit);
    return this.writes.write(audit, (ctx) => networks.updateNetwork(ctx, networkId, changes, inGroup(ctx)));
  }
  deleteNetwork(networkId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => networks.deleteNetwork(ctx, networkId));
  }

  /**
   * Node and DNS writes authorise `caller` in the writer (write-access.ts), like policy writes; without one
   * (tests, the system) the Worker checked it and the batch's guard re-checks it.
   */
  createNode(networkId: string, input: nodes.NodeInput, audit?: AuditContext, caller?: WriteCaller) {
    return this.writes.asManager(audit, networkId, caller, "Network", (ctx) => nodes.createNode(ctx, networkId, input));
  }
  updateNode(networkId: string, nodeId: string, changes: nodes.NodeChanges, audit?: AuditContext, caller?: WriteCaller) {
    return this.writes.asManager(audit, networkId, caller, "Node", (ctx) => nodes.updateNode(ctx, networkId, nodeId, changes));
  }
  deleteNode(networkId: string, nodeId: string, audit?: AuditContext, caller?: WriteCaller) {
    return this.writes.asManager(audit, networkId, caller, "Node", (ctx) => nodes.deleteNode(ctx, networkId, nodeId));
  }
  /** A gateway agent's PUT of its node's key (authorised in the batch: operations/gateway-agent.ts). */
  applyAgentNodeState(
    networkId: string,
    nodeId: string,
    agent: gatewayAgent.GatewayAgent,
    wanted: gatewayAgent.AgentNodeState,
    audit?: AuditContext,
  ) {
    return this.writes.write(audit, (ctx) => gatewayAgent.applyAgentNodeState(ctx, networkId, nodeId, agent, wanted));
  }

  /** Policy writes authorise `caller` themselves (policy-writes.ts): the Worker reads no network row for them. */
  createPolicy(networkId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    return this.policies.create(networkId, input, caller, audit);
  }
  replacePolicy(networkId: string, policyId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    return this.policies.replace(networkId, policyId, input, caller, audit);
  }
  deletePolicy(networkId: string, policyId: string, caller: WriteCaller, audit?: AuditContext) {
    return this.policies.delete(networkId, policyId, caller, audit);
  }

  createPool(networkId: string, input: pools.PoolInput, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => pools.createPool(ctx, networkId, input));
  }
  updatePool(networkId: string, poolId: string, changes: pools.PoolChanges, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => pools.updatePool(ctx, networkId, poolId, changes));
  }
  deletePool(networkId: string, poolId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => pools.deletePool(ctx, networkId, poolId));
  }
  setPoolMemberDrained(networkId: string, poolId: string, nodeId: string, drained: boolean, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => pools.setMemberDrained(ctx, networkId, poolId, nodeId, drained));
  }
  /** Pool health now, failing over what must (reports, the alarm); `now` (ms): tests evaluate at a chosen clock. */
  evaluatePools(networkId: string, now?: number) {
    return this.writes.write(undefined, (ctx) => evaluatePoolsNow(ctx, networkId, now));
  }

  enrolDevice(networkId: string, input: devices.DeviceEnrolment, audit?: AuditContext) {
    const enrolled = this.writes.write(audit, (ctx) => devices.enrolDevice(ctx, networkId, input));
    return this.reports.issued(networkId, enrolled); // the config it was issued (views/config-currency.ts)
  }
  renameDevice(networkId: string, nodeId: string, name: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => devices.renameDevice(ctx, networkId, nodeId, name));
  }
  removeDevice(networkId: string, deviceId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => devices.removeDevice(ctx, networkId, deviceId));
  }
  /** A device owner's role in the group changed (services/networks/operations/device-lifecycle.ts refreshDeviceOwners). */
  refreshDeviceOwner(networkId: string, userId: string) {
    return this.writes.write(undefined, (ctx) => refreshDeviceOwner(ctx, networkId, userId));
  }
  setRoutingPreference(networkId: string, nodeId: string, mode: NodeRow["routingMode"], policyIds: string[], audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => devices.setRoutingPreference(ctx, networkId, nodeId, mode, policyIds));
  }
  createDnsRecord(networkId: string, record: RecordInput, audit?: AuditContext, caller?: WriteCaller) {
    return this.writes.asManager(audit, networkId, caller, "Network", (ctx) => dnsRecords.createRecord(ctx, networkId, record));
  }
  replaceDnsRecord(networkId: string, recordId: string, record: RecordInput, audit?: AuditContext, caller?: WriteCaller) {
    const replace = (ctx: WriterContext) => dnsRecords.replaceRecord(ctx, networkId, recordId, record);
    return this.writes.asManager(audit, networkId, caller, "DNS record", replace);
  }
  deleteDnsRecord(networkId: string, recordId: string, audit?: AuditContext, caller?: WriteCaller) {
    return this.writes.asManager(audit, networkId, caller, "DNS record", (ctx) => dnsRecords.deleteRecord(ctx, networkId, recordId));
  }
  /** The access policy (docs/access.md, access-policies.ts): a manager's PUT, authorised in the writer like policy writes. */
  putAccessPolicy(networkId: string, input: AccessPolicyInput, caller: WriteCaller, ifMatch: number | null, audit?: AuditContext) {
    return this.access.put(networkId, input, caller, ifMatch, audit);
  }
  readAccessPolicy(networkId: string) {
    return this.access.read(networkId);
  }
  previewAccessPolicy(networkId: string, input: AccessPolicyInput) {
    return this.access.preview(networkId, input);
  }
  checkAccess(networkId: string, query: { src: string; dst: string; port: string }) {
    return this.access.check(networkId, query);
  }
  accessSources(networkId: string, dst: string) {
    return this.access.sources(networkId, dst);
  }
  expireAccessRules(networkId: string) {
    return this.access.expire(networkId);
  }

  /** Heartbeats and agents' reports, and reads of what they said: the hot state (hot-reports.ts), no D1 row. */
  recordHeartbeat(heartbeat: ReportedHeartbeat) {
    return this.reports.heartbeat(heartbeat);
  }
  recordAgentReports(networkId: string, reports: AgentNodeReport[]) {
    return this.reports.agentReports(networkId, reports);
  }
  /** The presence check now (the alarm runs it about once a minute); `now` (ms): tests judge at a chosen clock. */
  checkPresence(networkId: string, now?: number) {
    return this.presence.check(networkId, now);
  }
  readNodeReports(networkId: string, nodeIds?: string[]) {
    return this.reports.nodes(networkId, nodeIds);
  }
  readAppliedRevisions(networkId: string) {
    return this.reports.appliedRevisions(networkId);
  }
  readTunnels(networkId: string, query: TunnelQuery) {
    return this.reports.tunnels(networkId, query);
  }
  readRelayedPairs(networkId: string) {
    return this.writes.read(networkId, (held, topology) => relayedPairsOf(held, topology()));
  }
  /** The NAT clock's check now (the alarm runs it); `now` (ms): tests judge pairs at a chosen clock. */
  checkNatPaths(networkId: string, now?: number) {
    return this.nat.check(networkId, now);
  }
  /** GET /nodes/:id/paths (views/node-paths.ts): the held network, this writer's relays and the node's tunnel rows. */
  readPaths(networkId: string, nodeId: string, devicePeersSeen: string[] | null) {
    return this.reports.paths(networkId, nodeId, devicePeersSeen);
  }

  readConfigs(networkId: string, wanted: ConfigWanted[]) {
    return this.configs.read(networkId, wanted);
  }
  awaitConfig(networkId: string, wanted: ConfigWanted & { sinceRevision: number }, ms: number) {
    return this.configs.awaitConfig(networkId, wanted, ms);
  }
  awaitRoutingChange(networkId: string, sinceRevision: number, ms: number) {
    return this.configs.awaitRoutingChange(networkId, sinceRevision, ms);
  }
  readProbes(networkId: string, nodeIds: string[]) {
    return this.configs.probes(networkId, nodeIds);
  }
  /** Since this writer started: D1 statements and rows, full loads of the network, what it holds; its queue now. */
  async stats(): Promise<WriterStats> {
    return statsOf(this.writes, this.hot.store, this.ctx.storage.sql.databaseSize);
  }
  /** The writer's alarm (writer-alarm.ts): pool checks, access expiry, NAT paths and presence, each setting its own next time. */
  override async alarm() {
    await this.alarmClock.tick({
      pools: async (networkId) => ({ result: await this.evaluatePools(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      accessExpiry: async (networkId) => ({ result: await this.expireAccessRules(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      natPaths: async (networkId) => ({ result: await this.checkNatPaths(networkId), retryAt: Date.now() + NAT_CHECK_MS }),
      presence: async (networkId) => ({ result: await this.checkPresence(networkId), retryAt: Date.now() + PRESENCE_CHECK_MS }),
    });
  }
}

/** The network's writer: `await unwrap(networkWriter(env, networkId).createNode(networkId, input, audit))`. */
export const networkWriter = (env: Env, networkId: string) => typedStub<NetworkWriter>(env.NETWORK_WRITER, networkId);
