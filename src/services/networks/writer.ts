import type { Env } from "../../lib/env";
import { unwrap } from "../../lib/write-result";
import type { CommandName, WriterCommands } from "./commands";
import type { HeartbeatWrite } from "./operations/heartbeats";
import { groupWriterName, writerStub, type WriterRpc } from "./writer-rpc";

type Args<K extends CommandName> = WriterCommands[K] extends (ctx: never, ...args: infer A) => unknown ? A : never;
type Result<K extends CommandName> = Awaited<ReturnType<WriterCommands[K]>>;

/** Sends one command; an API error thrown inside the writer comes back out as the same ApiError. */
const send = <K extends CommandName>(rpc: WriterRpc, command: K, ...args: Args<K>) =>
  unwrap(rpc.run(command, args)) as Promise<Result<K>>;

/** The group's writer: network creation, where names and CIDRs are checked against the group's others. */
export const groupWriter = (env: Env, groupId: string) => {
  const rpc = writerStub(env, groupWriterName(groupId));
  return {
    createNetwork: (...args: Args<"createNetwork">) => send(rpc, "createNetwork", ...args),
  };
};

/** A network's writer: every change to its nodes, addresses, policies, DNS records and devices. */
export const networkWriter = (env: Env, networkId: string) => {
  const rpc = writerStub(env, networkId);
  return {
    updateNetwork: (groupId: string, changes: Args<"updateNetwork">[2]) => send(rpc, "updateNetwork", networkId, groupId, changes),
    deleteNetwork: () => send(rpc, "deleteNetwork", networkId),
    createNode: (input: Args<"createNode">[1]) => send(rpc, "createNode", networkId, input),
    updateNode: (nodeId: string, changes: Args<"updateNode">[2]) => send(rpc, "updateNode", networkId, nodeId, changes),
    deleteNode: (nodeId: string) => send(rpc, "deleteNode", networkId, nodeId),
    createPolicy: (input: Args<"createPolicy">[1]) => send(rpc, "createPolicy", networkId, input),
    replacePolicy: (policyId: string, input: Args<"replacePolicy">[2]) => send(rpc, "replacePolicy", networkId, policyId, input),
    deletePolicy: (policyId: string) => send(rpc, "deletePolicy", networkId, policyId),
    enrolDevice: (input: Args<"enrolDevice">[1]) => send(rpc, "enrolDevice", networkId, input),
    removeDevice: (deviceId: string) => send(rpc, "removeDevice", networkId, deviceId),
    setRoutingPreference: (nodeId: string, mode: Args<"setRoutingPreference">[2], policyIds: string[]) =>
      send(rpc, "setRoutingPreference", networkId, nodeId, mode, policyIds),
    createDnsRecord: (record: Args<"createDnsRecord">[1]) => send(rpc, "createDnsRecord", networkId, record),
    replaceDnsRecord: (recordId: string, record: Args<"replaceDnsRecord">[2]) => send(rpc, "replaceDnsRecord", networkId, recordId, record),
    deleteDnsRecord: (recordId: string) => send(rpc, "deleteDnsRecord", networkId, recordId),
    recordHeartbeat: (heartbeat: HeartbeatWrite) => unwrap(rpc.recordHeartbeat(heartbeat)),
  };
};
