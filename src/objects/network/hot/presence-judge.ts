import type { EventInput } from "../../../services/notifications/event-types";
import type { NodeRow } from "../../../db/rows";
import type { NodeHot } from "./hot-store";
import type { PresenceRow } from "./presence-store";
import { type Cutoffs, MAX_TRANSITIONS_PER_RUN } from "../../../core/presence-rules";

/** An event about a device node, before its owner is looked up (events of device nodes reach their owner's readers). */
export type DeviceEvent = Omit<EventInput, "device">;

/** One node's new presence row: `announce` when it is a transition D1 must hear of (with its events). */
export interface PresenceChange {
  row: PresenceRow;
  /** The beat the verdict rests on: D1's nodes.last_seen_at is set to it with each transition. */
  lastSeenAt: string;
  announce: boolean;
  events: DeviceEvent[];
}

export interface PresenceInput {
  networkId: string;
  groupId: string;
  routingRevision: number;
  /** The network's device nodes, with what their beats last said. */
  devices: { node: NodeRow; hot: NodeHot | undefined }[];
  previous: Map<string, PresenceRow>;
  at: Cutoffs;
}

const same = (a: PresenceRow | undefined, b: PresenceRow) =>
  a !== undefined &&
  a.state === b.state &&
  a.changedAt === b.changedAt &&
  a.behindSince === b.behindSince &&
  a.driftNotifiedRevision === b.driftNotifiedRevision;

/**
 * The cron's three detectors (node presence, drift clocks, config drift; src/scheduled) for one network's device
 * nodes, from the object's own rows. Only nodes that beat take part. node.offline on online (or first verdict) →
 * offline; node.online only on offline → online (a first sighting is silent). The drift clock starts the first
 * check a node is seen online and behind, stops once it is in sync or offline; config.drift once per (node,
 * desired revision). Dedupe keys are the cron's, so a check that dies between D1 and its own rows repeats
 * harmlessly. At most MAX_TRANSITIONS_PER_RUN presence and as many drift transitions a check; `more` says some wait.
 */
export function judgePresence(input: PresenceInput): { changes: PresenceChange[]; more: boolean } {
  const { at, routingRevision } = input;
  const changes: PresenceChange[] = [];
  let presenceBudget = MAX_TRANSITIONS_PER_RUN;
  let driftBudget = MAX_TRANSITIONS_PER_RUN;
  let more = false;
  for (const { node, hot } of input.devices) {
    const lastSeenAt = hot?.lastSeenAt ?? null;
    if (lastSeenAt === null) continue;
    const prev = input.previous.get(node.id);
    const online = lastSeenAt >= at.onlineSince;
    const state = online ? "online" : "offline";
    const events: DeviceEvent[] = [];
    let row: PresenceRow;
    let announce = false;
    if (prev?.state !== state) {
      if (presenceBudget === 0) {
        more = true;
        continue;
      }
      presenceBudget--;
      announce = true;
      const scope = { networkId: input.networkId, groupId: input.groupId, subjectId: node.id };
      const described = {
        id: node.id,
        name: node.name,
        address: node.address,
        isGateway: node.isGateway,
        gatewayId: node.gatewayId,
        deviceId: node.deviceId,
      };
      if (!online) {
        events.push({
          type: "node.offline",
          ...scope,
          data: { node: described, lastSeenAt },
          dedupeKey: `node.offline:${node.id}:${lastSeenAt}`,
        });
      } else if (prev?.state === "offline") {
        events.push({
          type: "node.online",
          ...scope,
          data: { node: described, lastSeenAt, offlineSince: prev.changedAt },
          dedupeKey: `node.online:${node.id}:${prev.changedAt}`,
        });
      }
      // Going offline also stops the drift clock: a node that cannot be reached is not "drifting".
      row = {
        nodeId: node.id,
        state,
        changedAt: at.now,
        behindSince: online ? (prev?.behindSince ?? null) : null,
        driftNotifiedRevision: prev?.driftNotifiedRevision ?? null,
      };
    } else {
      row = { ...prev };
    }
    const applied = hot?.appliedRevision ?? null;
    const behind = applied !== null && applied < routingRevision && online;
    if (behind && row.behindSince === null && row.state === "online") row.behindSince = at.now;
    if (!behind) row.behindSince = null;
    const drifted =
      behind &&
      row.behindSince !== null &&
      row.behindSince <= at.driftSince &&
      (row.driftNotifiedRevision === null || row.driftNotifiedRevision < routingRevision);
    if (drifted && driftBudget === 0) more = true;
    if (drifted && driftBudget > 0) {
      driftBudget--;
      announce = true;
      events.push({
        type: "config.drift",
        networkId: input.networkId,
        groupId: input.groupId,
        subjectId: node.id,
        data: {
          node: { id: node.id, name: node.name, address: node.address },
          desiredRevision: routingRevision,
          appliedRevision: applied,
          behindSince: row.behindSince,
          lastSeenAt,
        },
        dedupeKey: `config.drift:${node.id}:${routingRevision}`,
      });
      row.driftNotifiedRevision = routingRevision;
    }
    if (announce || !same(prev, row)) changes.push({ row, lastSeenAt, announce, events });
  }
  return { changes, more };
}
