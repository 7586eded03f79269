import type { Env } from "../../lib/env";
import { unwrap } from "../../lib/write-result";
import type { AuditContext } from "../audit/audit-trail";
import type { CommandName, WriterCommands } from "./commands";
import type { HeartbeatWrite } from "./operations/heartbeats";
import { groupWriterName, writerStub, type WriterRpc } from "./writer-rpc";

type Args<K extends CommandName> = WriterCommands[K] extends (ctx: never, ...args: infer A) => unknown ? A : never;
type Result<K extends CommandName> = Awaited<ReturnType<WriterCommands[K]>>;

/** Sends one command; an API error thrown inside the writer comes back out as the same ApiError. */
const sender = (rpc: WriterRpc, audit: AuditContext | undefined) =>
  <K extends CommandName>(command: K, ...args: Args<K>) => unwrap(rpc.run(command, args, audit)) as Promise<Result<K>>;

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
    createPolicy: (input: Args<"createPolicy">[1]) => send("createPolicy", networkId, input),
    replacePolicy: (policyId: string, input: Args<"replacePolicy">[2]) => send("replacePolicy", networkId, policyId, input),
    deletePolicy: (policyId: string) => send("deletePolicy", networkId, policyId),
    enrolDevice: (input: Args<"enrolDevice">[1]) => send("enrolDevice", networkId, input),
    renameDevice: (nodeId: string, name: string) => send("renameDevice", networkId, nodeId, name),
    removeDevice: (deviceId: string) => send("removeDevice", networkId, deviceId),
    setRoutingPreference: (nodeId: string, mode: Args<"setRoutingPreference">[2], policyIds: string[]) =>
      send("setRoutingPreference", networkId, nodeId, mode, policyIds),
    createDnsRecord: (record: Args<"createDnsRecord">[1]) => send("createDnsRecord", networkId, record),
    replaceDnsRecord: (recordId: string, record: Args<"replaceDnsRecord">[2]) => send("replaceDnsRecord", networkId, recordId, record),
    deleteDnsRecord: (recordId: string) => send("deleteDnsRecord", networkId, recordId),
    recordHeartbeat: (heartbeat: HeartbeatWrite) => unwrap(rpc.recordHeartbeat(heartbeat)),
  };
};
