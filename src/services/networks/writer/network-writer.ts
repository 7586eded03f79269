import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../../lib/env";
import { GroupCommit } from "../../../lib/group-commit";
import { capture, unwrap } from "../../../lib/write-result";
import type { AuditContext } from "../../audit/audit-trail";
import type { DnsRecord } from "../dns";
import { type ConfigWanted, readConfigs, readProbes } from "../memory/config-reads";
import { RevisionWaiters } from "../memory/revision-waiters";
import { accessPolicyView, checkAccessFlow, previewAccessPolicy } from "../views/access-policy";
import type { AccessPolicyInput } from "../access/access-state";
import { expireAccessRules } from "../operations/access-expiry";
import { putAccessPolicy } from "../operations/access-policy";
import { refreshDeviceOwner } from "../operations/device-owners";
import { accessSourcesView } from "../views/access-sources";
import * as devices from "../operations/devices";
import * as dnsRecords from "../operations/dns-records";
import * as gatewayAgent from "../operations/gateway-agent";
import * as pools from "../operations/gateway-pools";
import { type AdmittedHeartbeat, heartbeatPathReport, mergeHeartbeats, writeHeartbeats } from "../operations/heartbeats";
import type { PathReport } from "../operations/nat-paths";
import { nodePaths, relayedPairsOf } from "../views/node-paths";
import { NAT_CHECK_MS, NatClock } from "./nat-clock";
import * as networks from "../operations/networks";
import * as nodes from "../operations/nodes";
import * as policies from "../operations/policies";
import type { NodeRow } from "../state";
import type { WriteCaller } from "../write-access";
import { evaluatePoolsNow } from "../operations/pool-failover";
import { groupWriter } from "./group-writer";
import { POOL_CHECK_MS, PoolClock } from "./pool-clock";
import { typedStub } from "./typed-stub";
import { WriteRunner } from "./write-runner";
import { WriterAlarm } from "./writer-alarm";
import type { WriterStats } from "./writer-stats";

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
  /** Heartbeats bypass the serial queue (they touch no routing state) and share D1 batches under load. */
  private readonly heartbeats: GroupCommit<AdmittedHeartbeat>;
  /** Paths across NAT: what reports say of tunnels and endpoints, and the clock that moves pairs (nat-clock.ts). */
  private readonly nat: NatClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.writes = new WriteRunner(env, ctx, {
      afterWrite: () => this.waiters.wake(),
      schedulePoolChecks: (networkId, needed) => this.clock.schedule(networkId, needed),
      scheduleAccessExpiry: (networkId, at) => this.alarmClock.set(networkId, "accessExpiry", at),
    });
    this.waiters = new RevisionWaiters(() => this.writes.memory.heldRoutingRevision());
    this.heartbeats = new GroupCommit((items) => writeHeartbeats(this.writes.db, items), mergeHeartbeats);
    this.nat = new NatClock(env, this.writes, this.alarmClock);
  }

  updateNetwork(networkId: string, groupId: string, changes: networks.NetworkChanges, audit?: AuditContext) {
    const inGroup = () => unwrap(groupWriter(this.env, groupId).applyNetworkChanges(networkId, changes, audit));
    return this.writes.write(audit, (ctx) => networks.updateNetwork(ctx, networkId, changes, inGroup));
  }
  deleteNetwork(networkId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => networks.deleteNetwork(ctx, networkId));
  }

  createNode(networkId: string, input: nodes.NodeInput, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => nodes.createNode(ctx, networkId, input));
  }
  updateNode(networkId: string, nodeId: string, changes: nodes.NodeChanges, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => nodes.updateNode(ctx, networkId, nodeId, changes));
  }
  deleteNode(networkId: string, nodeId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => nodes.deleteNode(ctx, networkId, nodeId));
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

  /** Policy writes authorise `caller` themselves (write-access.ts): the Worker reads no network row for them. */
  createPolicy(networkId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => policies.createPolicy(ctx, networkId, input, caller));
  }
  replacePolicy(networkId: string, policyId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => policies.replacePolicy(ctx, networkId, policyId, input, caller));
  }
  deletePolicy(networkId: string, policyId: string, caller: WriteCaller, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => policies.deletePolicy(ctx, networkId, policyId, caller));
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
    return this.writes.write(audit, (ctx) => devices.enrolDevice(ctx, networkId, input));
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

  createDnsRecord(networkId: string, record: DnsRecord, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => dnsRecords.createRecord(ctx, networkId, record));
  }
  replaceDnsRecord(networkId: string, recordId: string, record: DnsRecord, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => dnsRecords.replaceRecord(ctx, networkId, recordId, record));
  }
  deleteDnsRecord(networkId: string, recordId: string, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => dnsRecords.deleteRecord(ctx, networkId, recordId));
  }

  /** The access policy (docs/access.md): a manager's PUT, authorised in the writer like policy writes. */
  putAccessPolicy(networkId: string, input: AccessPolicyInput, caller: WriteCaller, ifMatch: number | null, audit?: AuditContext) {
    return this.writes.write(audit, (ctx) => putAccessPolicy(ctx, networkId, input, caller, ifMatch));
  }
  readAccessPolicy(networkId: string) {
    return this.writes.read(networkId, (held) => accessPolicyView(held));
  }
  previewAccessPolicy(networkId: string, input: AccessPolicyInput) {
    return this.writes.read(networkId, (held) => previewAccessPolicy(held, input));
  }
  checkAccess(networkId: string, query: { src: string; dst: string; port: string }) {
    return this.writes.read(networkId, (held) => checkAccessFlow(held, query));
  }
  accessSources(networkId: string, dst: string) {
    return this.writes.read(networkId, (held, topology) => accessSourcesView(held, dst, topology().access));
  }

  /** Outside the queue: group-committed with other heartbeats (lib/group-commit.ts); then what it says of paths. */
  recordHeartbeat(heartbeat: AdmittedHeartbeat) {
    return capture(async () => {
      await this.heartbeats.submit(heartbeat.nodeId, heartbeat);
      await unwrap(this.nat.observe(heartbeat.networkId, [heartbeatPathReport(heartbeat)]));
      // What the beat taught (its own endpoints) may have moved the revision: the answer names the one after it.
      return { routingRevision: this.writes.memory.heldRoutingRevision() };
    });
  }
  /** What gateway agents' reports say of paths (their peers' endpoints after NAT): services/agents/reports.ts. */
  observePaths(networkId: string, reports: PathReport[]) {
    return capture(() => unwrap(this.nat.observe(networkId, reports)));
  }
  /** The pairs on a relay now (views/node-paths.ts), from memory. */
  readRelayedPairs(networkId: string) {
    return this.writes.read(networkId, (held, topology) => relayedPairsOf(held, topology()));
  }
  /** The NAT clock's check now (the alarm runs it); `now` (ms): tests judge pairs at a chosen clock. */
  checkNatPaths(networkId: string, now?: number) {
    return this.nat.check(networkId, now);
  }
  /** GET /nodes/:id/paths (views/node-paths.ts): the held network, this writer's relays and the node's tunnel rows. */
  readPaths(networkId: string, nodeId: string, devicePeersSeen: string[] | null) {
    return this.writes.read(networkId, (held, topology) => nodePaths(this.writes.db, held, topology(), nodeId, devicePeersSeen));
  }

  /** Config reads, served from the writer's memory (memory/config-reads.ts). */
  readConfigs(networkId: string, wanted: ConfigWanted[]) {
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

  /** The forwarding probes these nodes are asked to run now (memory/config-reads.ts): a report's probes are checked against them. */
  readProbes(networkId: string, nodeIds: string[]) {
    return capture(() => readProbes(this.writes.memory, this.writes.db, networkId, nodeIds));
  }

  /** Since this writer started: D1 statements and rows, full loads of the network, what it holds; its queue now. */
  async stats(): Promise<WriterStats> {
    const storageBytes = this.ctx.storage.sql.databaseSize;
    return { ...this.writes.meter, ...this.writes.memory.stats(), queueDepth: this.writes.queue.depth, storageBytes };
  }

  /** A lapsed access rule stops without a write (operations/access-expiry.ts): the alarm runs this at its expiresAt. */
  expireAccessRules(networkId: string) {
    return this.writes.write(undefined, (ctx) => expireAccessRules(ctx, networkId));
  }

  /** The writer's alarm (writer-alarm.ts): pool checks, access expiry and NAT paths, each setting its own next time. */
  override async alarm() {
    await this.alarmClock.tick({
      pools: async (networkId) => ({ result: await this.evaluatePools(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      accessExpiry: async (networkId) => ({ result: await this.expireAccessRules(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      natPaths: async (networkId) => ({ result: await this.checkNatPaths(networkId), retryAt: Date.now() + NAT_CHECK_MS }),
    });
  }
}

/** The network's writer: `await unwrap(networkWriter(env, networkId).createNode(networkId, input, audit))`. */
export const networkWriter = (env: Env, networkId: string) => typedStub<NetworkWriter>(env.NETWORK_WRITER, networkId);
