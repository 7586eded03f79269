import { getConfig } from "../../lib/env";
import { loadEffectiveSettings } from "../settings/settings";
import type { WriterContext } from "./commit";
import type { DnsRecord } from "./dns";
import * as devices from "./operations/devices";
import * as dnsRecords from "./operations/dns-records";
import * as gatewayAgent from "./operations/gateway-agent";
import * as pools from "./operations/gateway-pools";
import { evaluatePools, needsPoolChecks } from "./operations/pool-failover";
import { poolHealthRules } from "./pools/vitals";
import * as networks from "./operations/networks";
import * as nodes from "./operations/nodes";
import * as policies from "./operations/policies";
import type { NetworkRow } from "./state";

type RoutingMode = "all" | "none" | "only";

/** The hop limit and gateway eligibility in force: admin settings over ROUTING_POLICY_MAX_HOPS. */
async function policyRules(ctx: WriterContext) {
  const settings = await loadEffectiveSettings(ctx.env, ctx.db);
  return { maxHops: settings.routingPolicyMaxHops, eligibility: settings.gatewayEligibility };
}

/** Pool health now, failing over what must; then the writer's clock is kept while a pool can fail over. */
async function evaluateNow(ctx: WriterContext, networkId: string, now?: number) {
  const result = await evaluatePools(ctx, networkId, poolHealthRules(getConfig(ctx.env)), now);
  await ctx.schedulePoolChecks?.(networkId, result.keepChecking);
  return result;
}

/** A pool write, then the evaluation it may call for (a drained or departed active member hands over at once). */
async function poolWrite(ctx: WriterContext, networkId: string, write: () => Promise<{ id: string }>) {
  const { id } = await write();
  await evaluateNow(ctx, networkId);
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  return held.pools.get(id)!;
}

/**
 * Every write a network's single writer runs, by name. The Durable Object queues them one at a time
 * and delegates here; `writer.ts` is the typed way to send them. Group instances run the first two:
 * no two networks of a group may overlap or share a name, so those checks need one writer per group.
 */
export const writerCommands = {
  createNetwork: (ctx: WriterContext, input: networks.NewNetwork) => networks.createNetwork(ctx, input),
  applyNetworkChanges: (ctx: WriterContext, networkId: string, changes: networks.NetworkChanges) =>
    networks.updateNetwork(ctx, networkId, changes),

  /** The network's writer first (no node may arrive while its CIDR changes), then the group's (overlaps). */
  updateNetwork: async (ctx: WriterContext, networkId: string, groupId: string, changes: networks.NetworkChanges) => {
    await networks.assertCidrMayChange(ctx, networkId, changes);
    await networks.assertNamesFitDomain(ctx, networkId, changes);
    const row = (await ctx.inGroup(groupId, "applyNetworkChanges", [networkId, changes])) as NetworkRow;
    // The group's writer wrote the row (and any revision bump): hold it, so the next write needs no reload.
    ctx.memory.adopt(row);
    return row;
  },
  deleteNetwork: (ctx: WriterContext, networkId: string) => networks.deleteNetwork(ctx, networkId),

  createNode: (ctx: WriterContext, networkId: string, input: nodes.NodeInput) => nodes.createNode(ctx, networkId, input),
  updateNode: (ctx: WriterContext, networkId: string, nodeId: string, changes: nodes.NodeChanges) =>
    nodes.updateNode(ctx, networkId, nodeId, changes),
  deleteNode: (ctx: WriterContext, networkId: string, nodeId: string) => nodes.deleteNode(ctx, networkId, nodeId),
  applyAgentNodeState: (
    ctx: WriterContext,
    networkId: string,
    nodeId: string,
    agent: gatewayAgent.GatewayAgent,
    wanted: gatewayAgent.AgentNodeState,
  ) => gatewayAgent.applyAgentNodeState(ctx, networkId, nodeId, agent, wanted),

  createPolicy: async (ctx: WriterContext, networkId: string, input: policies.PolicyInput) =>
    policies.createPolicy(ctx, networkId, input, await policyRules(ctx)),
  replacePolicy: async (ctx: WriterContext, networkId: string, policyId: string, input: policies.PolicyInput) =>
    policies.replacePolicy(ctx, networkId, policyId, input, await policyRules(ctx)),
  deletePolicy: (ctx: WriterContext, networkId: string, policyId: string) => policies.deletePolicy(ctx, networkId, policyId),

  createPool: async (ctx: WriterContext, networkId: string, input: pools.PoolInput) => {
    const { eligibility } = await policyRules(ctx);
    return poolWrite(ctx, networkId, () => pools.createPool(ctx, networkId, input, eligibility));
  },
  updatePool: async (ctx: WriterContext, networkId: string, poolId: string, changes: pools.PoolChanges) => {
    const { eligibility } = await policyRules(ctx);
    return poolWrite(ctx, networkId, () => pools.updatePool(ctx, networkId, poolId, changes, eligibility));
  },
  deletePool: async (ctx: WriterContext, networkId: string, poolId: string) => {
    await pools.deletePool(ctx, networkId, poolId);
    await ctx.schedulePoolChecks?.(networkId, needsPoolChecks(await ctx.memory.forWrite(ctx.db, networkId)));
  },
  setPoolMemberDrained: (ctx: WriterContext, networkId: string, poolId: string, nodeId: string, drained: boolean) =>
    poolWrite(ctx, networkId, () => pools.setMemberDrained(ctx, networkId, poolId, nodeId, drained)),
  /** `now` (ms): tests evaluate at a chosen clock; the alarm and reports use the real one. */
  evaluatePools: (ctx: WriterContext, networkId: string, now?: number) => evaluateNow(ctx, networkId, now),

  enrolDevice: (ctx: WriterContext, networkId: string, input: devices.DeviceEnrolment) => devices.enrolDevice(ctx, networkId, input),
  renameDevice: (ctx: WriterContext, networkId: string, nodeId: string, name: string) => devices.renameDevice(ctx, networkId, nodeId, name),
  removeDevice: (ctx: WriterContext, networkId: string, deviceId: string) => devices.removeDevice(ctx, networkId, deviceId),
  setRoutingPreference: (ctx: WriterContext, networkId: string, nodeId: string, mode: RoutingMode, policyIds: string[]) =>
    devices.setRoutingPreference(ctx, networkId, nodeId, mode, policyIds),

  createDnsRecord: (ctx: WriterContext, networkId: string, record: DnsRecord) => dnsRecords.createRecord(ctx, networkId, record),
  replaceDnsRecord: (ctx: WriterContext, networkId: string, recordId: string, record: DnsRecord) =>
    dnsRecords.replaceRecord(ctx, networkId, recordId, record),
  deleteDnsRecord: (ctx: WriterContext, networkId: string, recordId: string) => dnsRecords.deleteRecord(ctx, networkId, recordId),
};

export type WriterCommands = typeof writerCommands;
export type CommandName = keyof WriterCommands;
export const isCommandName = (name: string): name is CommandName => Object.hasOwn(writerCommands, name);
