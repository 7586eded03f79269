import type { Env } from "../../lib/env";
import { unwrap, type WriteResult } from "../../lib/write-result";
import type { AuditContext } from "../audit/audit-trail";
import type { CommandName, WriterCommands } from "./commands";
import type { AssignedProbes, ConfigRead, ConfigWanted } from "./memory/config-reads";
import type { HeartbeatWrite } from "./operations/heartbeats";

/**
 * What crosses the RPC boundary to a network's writer (the Durable Object in src/durable-objects):
 * a command by name with its arguments and the request it serves (its audit row commits with the
 * change; the answer carries the domain events), or a heartbeat for group commit. Declared on the
 * caller's side, so the domain never imports the Durable Object; the class declares it implements this.
 */
export interface WriterRpc {
  run(command: string, args: unknown[], audit?: AuditContext): Promise<WriteResult<unknown>>;
  recordHeartbeat(heartbeat: HeartbeatWrite): Promise<WriteResult<void>>;
  /** Config reads, served from the writer's memory (memory/config-reads.ts). */
  readConfigs(networkId: string, wanted: ConfigWanted[]): Promise<WriteResult<ConfigRead[]>>;
  /** The forwarding probes these nodes are asked to run now (memory/config-reads.ts): a report's probes are checked against them. */
  readProbes(networkId: string, nodeIds: string[]): Promise<WriteResult<AssignedProbes[]>>;
  /** A long poll: resolves once the network's routing revision is no longer `since`, or after `ms`. */
  awaitRoutingChange(networkId: string, since: number, ms: number): Promise<WriteResult<void>>;
  stats(): Promise<WriterStats>;
}

/** A writer's running totals (D1 as it reports them) and what it holds: for tests, the benchmark and operators. */
export interface WriterStats {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Full loads of the network from D1 (a restart, or a change that went around the writer). */
  loads: number;
  heldNodes: number;
  topologiesKept: number;
  /** Commands (and loads) queued or running now: what a write arriving now waits behind. */
  queueDepth: number;
}

/** Instances are named by a network id, or "group:<id>" for the checks that span a group's networks. */
export const groupWriterName = (groupId: string) => `group:${groupId}`;

export function writerStub(env: Env, name: string): WriterRpc {
  // The binding is declared untyped in lib/env (lib sits below the domain); this is its one typed view.
  return env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(name)) as unknown as WriterRpc;
}

type Args<K extends CommandName> = WriterCommands[K] extends (ctx: never, ...args: infer A) => unknown ? A : never;
type Result<K extends CommandName> = Awaited<ReturnType<WriterCommands[K]>>;

/** Sends one command; an API error thrown inside the writer comes back out as the same ApiError. */
const sender =
  (rpc: WriterRpc, audit: AuditContext | undefined) =>
  <K extends CommandName>(command: K, ...args: Args<K>) =>
    unwrap(rpc.run(command, args, audit)) as Promise<Result<K>>;

/**
 * The group's writer: network creation, where names and CIDRs are checked against the group's others.
 * `audit` is the request the writes serve (audited with them); without it the change is the system's own.
 */
export const groupWriter = (env: Env, groupId: string, audit?: AuditContext) => {
  const send = sender(writerStub(env, groupWriterName(groupId)), audit);
  return {
    createNetwork: (...args: Args<"createNetwork">) => send("createNetwork", ...args),
  };
};

/** A network's writer: every change to its nodes, addresses, policies, DNS records and devices. */
export const networkWriter = (env: Env, networkId: string, audit?: AuditContext) => {
  const rpc = writerStub(env, networkId);
  const send = sender(rpc, audit);
  return {
    updateNetwork: (groupId: string, changes: Args<"updateNetwork">[2]) => send("updateNetwork", networkId, groupId, changes),
    deleteNetwork: () => send("deleteNetwork", networkId),
    createNode: (input: Args<"createNode">[1]) => send("createNode", networkId, input),
    updateNode: (nodeId: string, changes: Args<"updateNode">[2]) => send("updateNode", networkId, nodeId, changes),
    deleteNode: (nodeId: string) => send("deleteNode", networkId, nodeId),
    applyAgentNodeState: (nodeId: string, agent: Args<"applyAgentNodeState">[2], wanted: Args<"applyAgentNodeState">[3]) =>
      send("applyAgentNodeState", networkId, nodeId, agent, wanted),
    createPolicy: (input: Args<"createPolicy">[1]) => send("createPolicy", networkId, input),
    replacePolicy: (policyId: string, input: Args<"replacePolicy">[2]) => send("replacePolicy", networkId, policyId, input),
    deletePolicy: (policyId: string) => send("deletePolicy", networkId, policyId),
    createPool: (input: Args<"createPool">[1]) => send("createPool", networkId, input),
    updatePool: (poolId: string, changes: Args<"updatePool">[2]) => send("updatePool", networkId, poolId, changes),
    deletePool: (poolId: string) => send("deletePool", networkId, poolId),
    setPoolMemberDrained: (poolId: string, nodeId: string, drained: boolean) =>
      send("setPoolMemberDrained", networkId, poolId, nodeId, drained),
    evaluatePools: (now?: number) => send("evaluatePools", networkId, now),
    enrolDevice: (input: Args<"enrolDevice">[1]) => send("enrolDevice", networkId, input),
    renameDevice: (nodeId: string, name: string) => send("renameDevice", networkId, nodeId, name),
    removeDevice: (deviceId: string) => send("removeDevice", networkId, deviceId),
    setRoutingPreference: (nodeId: string, mode: Args<"setRoutingPreference">[2], policyIds: string[]) =>
      send("setRoutingPreference", networkId, nodeId, mode, policyIds),
    createDnsRecord: (record: Args<"createDnsRecord">[1]) => send("createDnsRecord", networkId, record),
    replaceDnsRecord: (recordId: string, record: Args<"replaceDnsRecord">[2]) => send("replaceDnsRecord", networkId, recordId, record),
    deleteDnsRecord: (recordId: string) => send("deleteDnsRecord", networkId, recordId),
    recordHeartbeat: (heartbeat: HeartbeatWrite) => unwrap(rpc.recordHeartbeat(heartbeat)),
    readConfigs: (wanted: ConfigWanted[]) => unwrap(rpc.readConfigs(networkId, wanted)),
    readProbes: (nodeIds: string[]) => unwrap(rpc.readProbes(networkId, nodeIds)),
    awaitRoutingChange: (since: number, ms: number) => unwrap(rpc.awaitRoutingChange(networkId, since, ms)),
    stats: () => rpc.stats(),
  };
};
