import { loadEffectiveSettings } from "../settings/settings";
import type { WriterContext } from "./commit";
import type { DnsRecord } from "./dns";
import * as devices from "./operations/devices";
import * as dnsRecords from "./operations/dns-records";
import * as gatewayAgent from "./operations/gateway-agent";
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
