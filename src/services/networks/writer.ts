import type { Env } from "../../lib/env";
import type { HeartbeatWrite } from "./operations/heartbeats";
import type { DnsRecord } from "./dns";
import type { DeviceEnrolment } from "./operations/devices";
import type { NetworkChanges, NewNetwork } from "./operations/networks";
import type { NodeChanges, NodeInput } from "./operations/nodes";
import type { PolicyInput } from "./operations/policies";
import { unwrap } from "../../lib/write-result";

export const stub = (env: Env, name: string) => env.NETWORK_WRITER.get(env.NETWORK_WRITER.idFromName(name));

/** Typed calls into the writers; API errors thrown inside come back out as ApiError. */
export const groupWriter = (env: Env, groupId: string) => {
  const writer = stub(env, `group:${groupId}`);
  return {
    createNetwork: (input: NewNetwork) => unwrap(writer.createNetwork(input)),
  };
};

export const networkWriter = (env: Env, networkId: string) => {
  const writer = stub(env, networkId);
  return {
    updateNetwork: (groupId: string, changes: NetworkChanges) => unwrap(writer.updateNetwork(networkId, groupId, changes)),
    deleteNetwork: () => unwrap(writer.deleteNetwork(networkId)),
    createNode: (input: NodeInput) => unwrap(writer.createNode(networkId, input)),
    updateNode: (nodeId: string, changes: NodeChanges) => unwrap(writer.updateNode(networkId, nodeId, changes)),
    deleteNode: (nodeId: string) => unwrap(writer.deleteNode(networkId, nodeId)),
    createPolicy: (input: PolicyInput) => unwrap(writer.createPolicy(networkId, input)),
    replacePolicy: (policyId: string, input: PolicyInput) => unwrap(writer.replacePolicy(networkId, policyId, input)),
    deletePolicy: (policyId: string) => unwrap(writer.deletePolicy(networkId, policyId)),
    enrolDevice: (input: DeviceEnrolment) => unwrap(writer.enrolDevice(networkId, input)),
    recordHeartbeat: (heartbeat: HeartbeatWrite) => unwrap(writer.recordHeartbeat(heartbeat)),
    removeDevice: (deviceId: string) => unwrap(writer.removeDevice(networkId, deviceId)),
    setRoutingPreference: (nodeId: string, mode: "all" | "none" | "only", policyIds: string[]) =>
      unwrap(writer.setRoutingPreference(networkId, nodeId, mode, policyIds)),
    createDnsRecord: (record: DnsRecord) => unwrap(writer.createDnsRecord(networkId, record)),
    replaceDnsRecord: (recordId: string, record: DnsRecord) => unwrap(writer.replaceDnsRecord(networkId, recordId, record)),
    deleteDnsRecord: (recordId: string) => unwrap(writer.deleteDnsRecord(networkId, recordId)),
  };
};
