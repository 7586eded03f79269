import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { Env } from "../lib/env";
import type { DnsRecord } from "../services/networks/dns";
import { policyRules } from "../services/networks/rules/policy-rules";
import * as deviceOps from "../services/networks/operations/devices";
import * as dnsOps from "../services/networks/operations/dns-records";
import * as networkOps from "../services/networks/operations/networks";
import * as nodeOps from "../services/networks/operations/nodes";
import * as policyOps from "../services/networks/operations/policies";
import { mergeHeartbeats, writeHeartbeats, type HeartbeatWrite } from "../services/networks/operations/heartbeats";
import { GroupCommit } from "./group-commit";
import { SerialQueue } from "./serial-queue";
import { stub } from "../services/networks/writer";
import { capture, unwrap, type WriteResult } from "../lib/write-result";

/**
 * The single writer. Instances named by a network id serialise that network's nodes, policies,
 * DNS records and address allocation; instances named "group:<id>" serialise network creation and
 * CIDR/name changes within a group, where overlap checks need one writer. Reads never come here.
 * A network instance may call its group instance (never the reverse), so the two cannot deadlock.
 */
export class NetworkWriter extends DurableObject<Env> {
  private readonly queue = new SerialQueue();
  private readonly db = createDb(this.env.DB);
  /** Heartbeats bypass the serial queue (they touch no routing state) and share D1 batches under load. */
  private readonly heartbeats = new GroupCommit<HeartbeatWrite>((items) => writeHeartbeats(this.db, items), mergeHeartbeats);

  private write<T>(task: () => Promise<T>): Promise<WriteResult<T>> {
    return this.queue.run(() => capture(task));
  }

  private group(groupId: string) {
    return stub(this.env, `group:${groupId}`);
  }

  // --- group instances ---

  createNetwork(input: networkOps.NewNetwork) {
    return this.write(() => networkOps.createNetwork(this.db, input));
  }

  applyNetworkChanges(networkId: string, changes: networkOps.NetworkChanges) {
    return this.write(() => networkOps.updateNetwork(this.db, networkId, changes));
  }

  // --- network instances ---

  updateNetwork(networkId: string, groupId: string, changes: networkOps.NetworkChanges) {
    return this.write(async () => {
      await networkOps.assertCidrMayChange(this.db, networkId, changes);
      return unwrap(this.group(groupId).applyNetworkChanges(networkId, changes));
    });
  }

  deleteNetwork(networkId: string) {
    return this.write(() => networkOps.deleteNetwork(this.db, networkId));
  }

  createNode(networkId: string, input: nodeOps.NodeInput) {
    return this.write(() => nodeOps.createNode(this.db, networkId, input));
  }

  updateNode(networkId: string, nodeId: string, changes: nodeOps.NodeChanges) {
    return this.write(() => nodeOps.updateNode(this.db, networkId, nodeId, changes));
  }

  deleteNode(networkId: string, nodeId: string) {
    return this.write(() => nodeOps.deleteNode(this.db, networkId, nodeId));
  }

  createPolicy(networkId: string, input: policyOps.PolicyInput) {
    return this.write(async () => policyOps.createPolicy(this.db, networkId, input, await policyRules(this.env, this.db)));
  }

  replacePolicy(networkId: string, policyId: string, input: policyOps.PolicyInput) {
    return this.write(async () => policyOps.replacePolicy(this.db, networkId, policyId, input, await policyRules(this.env, this.db)));
  }

  deletePolicy(networkId: string, policyId: string) {
    return this.write(() => policyOps.deletePolicy(this.db, networkId, policyId));
  }

  enrolDevice(networkId: string, input: deviceOps.DeviceEnrolment) {
    return this.write(() => deviceOps.enrolDevice(this.db, networkId, input));
  }

  removeDevice(networkId: string, deviceId: string) {
    return this.write(() => deviceOps.removeDevice(this.db, networkId, deviceId));
  }

  recordHeartbeat(heartbeat: HeartbeatWrite) {
    return capture(() => this.heartbeats.submit(heartbeat.nodeId, heartbeat));
  }

  setRoutingPreference(networkId: string, nodeId: string, mode: "all" | "none" | "only", policyIds: string[]) {
    return this.write(() => deviceOps.setRoutingPreference(this.db, networkId, nodeId, mode, policyIds));
  }

  createDnsRecord(networkId: string, record: DnsRecord) {
    return this.write(() => dnsOps.createRecord(this.db, networkId, record));
  }

  replaceDnsRecord(networkId: string, recordId: string, record: DnsRecord) {
    return this.write(() => dnsOps.replaceRecord(this.db, networkId, recordId, record));
  }

  deleteDnsRecord(networkId: string, recordId: string) {
    return this.write(() => dnsOps.deleteRecord(this.db, networkId, recordId));
  }
}
