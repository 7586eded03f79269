import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../lib/env";
import type { AuditContext } from "../../services/audit/audit-trail";
import type { RecordInput } from "../../core/dns";
import type { ConfigWanted } from "./memory/config-reads";
import type { AccessPolicyInput } from "./access-policy/access-state";
import { refreshDeviceOwner } from "./operations/device-owners";
import * as devices from "./operations/devices";
import * as dnsRecords from "./operations/dns-records";
import * as gatewayAgent from "./operations/gateway-agent";
import * as pools from "./operations/gateway-pools";
import type { ReceivedAgentReport, ReceivedHeartbeat } from "./operations/heartbeats";
import type { TunnelQuery } from "./hot/tunnel-query";
import type { HeldNetwork } from "./memory/held-network";
import { putAccessPolicy } from "./operations/access-policy";
import { relayedPairsOf } from "./views/node-paths";
import { NAT_CHECK_MS } from "./clocks/nat-clock";
import { PRESENCE_CHECK_MS } from "./clocks/presence-clock";
import * as networks from "./operations/networks";
import type { NetworkChanges } from "../group/client";
import * as nodes from "./operations/nodes";
import * as policies from "./operations/policies";
import type { NodeRow } from "../../db/rows";
import type { WriteCaller } from "./authority/write-authority";
import { evaluatePoolsNow } from "./operations/pool-failover";
import { viaGroupWriter } from "./via-group-writer";
import { POOL_CHECK_MS } from "./clocks/pool-clock";
import { NetworkParts } from "./parts";
import { statsOf, type WriterStats } from "./runner/writer-stats";
import type { WriterContext } from "./commit";

/**
 * The single writer of one network (one instance per network, named by its id), reached only through client.ts:
 * every change to its nodes, addresses, policies, pools, DNS records and devices runs here, one at a time, to one
 * commit (commit.ts). A new write is one method here and one operation (operations/): the method names who may
 * make it (`byManager` / `asManager`: the caller checked on arrival, in the queue and in the batch; `write`: the
 * Worker or the system decided) and the operation does it. Every method answers a WriteResult (an API error
 * crosses RPC as data; callers `unwrap` it). `audit` is the request a write serves (its audit row commits with the
 * change); without it the change is the system's own. It holds the network in memory (memory/), so config reads,
 * long polls and the hot state's reports come here too; its parts are wired in parts.ts.
 */
export class NetworkWriter extends DurableObject<Env> {
  private readonly parts = new NetworkParts(this.ctx, this.env);

  updateNetwork(networkId: string, groupId: string, changes: NetworkChanges, audit?: AuditContext) {
    const inGroup = (ctx: WriterContext) => viaGroupWriter(ctx, this.env, groupId, networkId, changes, audit);
    return this.parts.writes.write(audit, (ctx) => networks.updateNetwork(ctx, networkId, changes, inGroup(ctx)));
  }
  deleteNetwork(networkId: string, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => networks.deleteNetwork(ctx, networkId));
  }

  /**
   * Node and DNS writes authorise `caller` in the writer (write-authority.ts), like policy writes; without one
   * (tests, the system) the Worker checked it and the batch's guard re-checks it.
   */
  createNode(networkId: string, input: nodes.NodeInput, audit?: AuditContext, caller?: WriteCaller) {
    return this.parts.writes.asManager(audit, networkId, caller, "Network", (ctx) => nodes.createNode(ctx, networkId, input));
  }
  updateNode(networkId: string, nodeId: string, changes: nodes.NodeChanges, audit?: AuditContext, caller?: WriteCaller) {
    return this.parts.writes.asManager(audit, networkId, caller, "Node", (ctx) => nodes.updateNode(ctx, networkId, nodeId, changes));
  }
  deleteNode(networkId: string, nodeId: string, audit?: AuditContext, caller?: WriteCaller) {
    return this.parts.writes.asManager(audit, networkId, caller, "Node", (ctx) => nodes.deleteNode(ctx, networkId, nodeId));
  }
  /** A gateway agent's PUT of its node's key (authorised in the batch: operations/gateway-agent.ts). */
  applyAgentNodeState(
    networkId: string,
    nodeId: string,
    agent: gatewayAgent.GatewayAgent,
    wanted: gatewayAgent.AgentNodeState,
    audit?: AuditContext,
  ) {
    return this.parts.writes.write(audit, (ctx) => gatewayAgent.applyAgentNodeState(ctx, networkId, nodeId, agent, wanted));
  }

  /** Policy writes: a manager's, their directory reads started on arrival (`warm`); the Worker reads no row for them. */
  createPolicy(networkId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    const create = (ctx: WriterContext, held: HeldNetwork) => policies.createPolicy(ctx, held, input);
    return this.parts.writes.byManager(audit, networkId, caller, "Network", create, policies.warmPolicyReads(input, caller));
  }
  replacePolicy(networkId: string, policyId: string, input: policies.PolicyInput, caller: WriteCaller, audit?: AuditContext) {
    const replace = (ctx: WriterContext, held: HeldNetwork) => policies.replacePolicy(ctx, held, policyId, input);
    return this.parts.writes.byManager(audit, networkId, caller, "Routing policy", replace, policies.warmPolicyReads(input, caller));
  }
  deletePolicy(networkId: string, policyId: string, caller: WriteCaller, audit?: AuditContext) {
    return this.parts.writes.byManager(audit, networkId, caller, "Routing policy", (ctx, held) =>
      policies.deletePolicy(ctx, held, policyId),
    );
  }

  createPool(networkId: string, input: pools.PoolInput, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => pools.createPool(ctx, networkId, input));
  }
  updatePool(networkId: string, poolId: string, changes: pools.PoolChanges, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => pools.updatePool(ctx, networkId, poolId, changes));
  }
  deletePool(networkId: string, poolId: string, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => pools.deletePool(ctx, networkId, poolId));
  }
  setPoolMemberDrained(networkId: string, poolId: string, nodeId: string, drained: boolean, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => pools.setMemberDrained(ctx, networkId, poolId, nodeId, drained));
  }
  /** Pool health now, failing over what must (reports, the alarm); `now` (ms): tests evaluate at a chosen clock. */
  evaluatePools(networkId: string, now?: number) {
    return this.parts.writes.write(undefined, (ctx) => evaluatePoolsNow(ctx, networkId, now));
  }

  enrolDevice(networkId: string, input: devices.DeviceEnrolment, audit?: AuditContext) {
    const enrolled = this.parts.writes.write(audit, (ctx) => devices.enrolDevice(ctx, networkId, input));
    return this.parts.reports.issued(networkId, enrolled); // the config it was issued (views/config-currency.ts)
  }
  renameDevice(networkId: string, nodeId: string, name: string, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => devices.renameDevice(ctx, networkId, nodeId, name));
  }
  removeDevice(networkId: string, deviceId: string, audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => devices.removeDevice(ctx, networkId, deviceId));
  }
  /** A device owner's role in the group changed (services/networks/device-lifecycle.ts refreshDeviceOwners). */
  refreshDeviceOwner(networkId: string, userId: string) {
    return this.parts.writes.write(undefined, (ctx) => refreshDeviceOwner(ctx, networkId, userId));
  }
  setRoutingPreference(networkId: string, nodeId: string, mode: NodeRow["routingMode"], policyIds: string[], audit?: AuditContext) {
    return this.parts.writes.write(audit, (ctx) => devices.setRoutingPreference(ctx, networkId, nodeId, mode, policyIds));
  }

  createDnsRecord(networkId: string, record: RecordInput, audit?: AuditContext, caller?: WriteCaller) {
    return this.parts.writes.asManager(audit, networkId, caller, "Network", (ctx) => dnsRecords.createRecord(ctx, networkId, record));
  }
  replaceDnsRecord(networkId: string, recordId: string, record: RecordInput, audit?: AuditContext, caller?: WriteCaller) {
    const replace = (ctx: WriterContext) => dnsRecords.replaceRecord(ctx, networkId, recordId, record);
    return this.parts.writes.asManager(audit, networkId, caller, "DNS record", replace);
  }
  deleteDnsRecord(networkId: string, recordId: string, audit?: AuditContext, caller?: WriteCaller) {
    return this.parts.writes.asManager(audit, networkId, caller, "DNS record", (ctx) => dnsRecords.deleteRecord(ctx, networkId, recordId));
  }

  /** The access policy (docs/access.md): a manager's PUT of the whole document, and its reads (rpc/access-policies.ts). */
  putAccessPolicy(networkId: string, input: AccessPolicyInput, caller: WriteCaller, ifMatch: number | null, audit?: AuditContext) {
    const put = (ctx: WriterContext, held: HeldNetwork) => putAccessPolicy(ctx, held, input, caller, ifMatch);
    return this.parts.writes.byManager(audit, networkId, caller, "Network", put);
  }
  readAccessPolicy(networkId: string) {
    return this.parts.access.read(networkId);
  }
  previewAccessPolicy(networkId: string, input: AccessPolicyInput) {
    return this.parts.access.preview(networkId, input);
  }
  checkAccess(networkId: string, query: { src: string; dst: string; port: string }) {
    return this.parts.access.check(networkId, query);
  }
  accessSources(networkId: string, dst: string) {
    return this.parts.access.sources(networkId, dst);
  }
  expireAccessRules(networkId: string) {
    return this.parts.access.expire(networkId);
  }

  /** Heartbeats and agents' reports, and reads of what they said: the hot state (hot-reports.ts), no D1 row. */
  recordHeartbeat(heartbeat: ReceivedHeartbeat) {
    return this.parts.reports.heartbeat(heartbeat);
  }
  recordAgentReports(networkId: string, reports: ReceivedAgentReport[]) {
    return this.parts.reports.agentReports(networkId, reports);
  }
  /** The presence check now (the alarm runs it about once a minute); `now` (ms): tests judge at a chosen clock. */
  checkPresence(networkId: string, now?: number) {
    return this.parts.presence.check(networkId, now);
  }
  readNodeReports(networkId: string, nodeIds?: string[]) {
    return this.parts.reports.nodes(networkId, nodeIds);
  }
  readAppliedRevisions(networkId: string) {
    return this.parts.reports.appliedRevisions(networkId);
  }
  readTunnels(networkId: string, query: TunnelQuery) {
    return this.parts.reports.tunnels(networkId, query);
  }
  readRelayedPairs(networkId: string) {
    return this.parts.writes.read(networkId, (held, topology) => relayedPairsOf(held, topology()));
  }
  /** The NAT clock's check now (the alarm runs it); `now` (ms): tests judge pairs at a chosen clock. */
  checkNatPaths(networkId: string, now?: number) {
    return this.parts.nat.check(networkId, now);
  }
  /** GET /nodes/:id/paths (views/node-paths.ts): the held network, this writer's relays and the node's tunnel rows. */
  readPaths(networkId: string, nodeId: string, devicePeersSeen: string[] | null) {
    return this.parts.reports.paths(networkId, nodeId, devicePeersSeen);
  }

  readConfigs(networkId: string, wanted: ConfigWanted[]) {
    return this.parts.configs.read(networkId, wanted);
  }
  awaitConfig(networkId: string, wanted: ConfigWanted & { sinceRevision: number }, ms: number) {
    return this.parts.configs.awaitConfig(networkId, wanted, ms);
  }
  awaitRoutingChange(networkId: string, sinceRevision: number, ms: number) {
    return this.parts.configs.awaitRoutingChange(networkId, sinceRevision, ms);
  }
  readProbes(networkId: string, nodeIds: string[]) {
    return this.parts.configs.probes(networkId, nodeIds);
  }

  /** Since this writer started: D1 statements and rows, full loads of the network, what it holds; its queue now. */
  async stats(): Promise<WriterStats> {
    return statsOf(this.parts.writes, this.parts.hot.store, this.ctx.storage.sql.databaseSize, this.parts.presence.transitions);
  }

  /** The writer's alarm (writer-alarm.ts): pool checks, access expiry, NAT paths and presence, each setting its own next time. */
  override async alarm() {
    await this.parts.alarmClock.tick({
      pools: async (networkId) => ({ result: await this.evaluatePools(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      accessExpiry: async (networkId) => ({ result: await this.expireAccessRules(networkId), retryAt: Date.now() + POOL_CHECK_MS }),
      natPaths: async (networkId) => ({ result: await this.checkNatPaths(networkId), retryAt: Date.now() + NAT_CHECK_MS }),
      presence: async (networkId) => ({ result: await this.checkPresence(networkId), retryAt: Date.now() + PRESENCE_CHECK_MS }),
    });
  }
}
