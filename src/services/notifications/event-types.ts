/** The events an account can subscribe a channel to (docs/notifications.md lists when each fires). */
export const EVENT_TYPES = [
  "node.offline",
  "node.online",
  "gateway.down",
  "gateway.up",
  "config.drift",
  "policy.changed",
  "device.enrolled",
  "gateway.failover",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only by POST /notifications/channels/:id/test, to that channel alone; not subscribable. */
export const TEST_EVENT = "notification.test";

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  "node.offline": "A node that had reported stopped sending heartbeats for OFFLINE_AFTER_SECONDS",
  "node.online": "A node announced offline reported again",
  "gateway.down": "An inventory gateway serving the network is disabled, or every gateway node on it is offline",
  "gateway.up": "A gateway announced down is enabled and has an online gateway node again",
  "config.drift": "An online node has run behind the network's routing revision for DRIFT_AFTER_SECONDS",
  "policy.changed": "A routing policy of the network was created, replaced or deleted",
  "device.enrolled": "A managed-client device enrolled into the network",
  "gateway.failover":
    "A gateway pool's active member changed: the one carrying traffic was unhealthy (stale report, not forwarding) or drained, or a preferred member took over (preempt)",
};

/** What an emitter hands over: the network scopes who may receive it. */
export interface EventInput {
  type: EventType;
  networkId: string;
  groupId: string;
  subjectId: string;
  data: Record<string, unknown>;
  /** Same key, one event: makes repeated detection runs harmless. */
  dedupeKey?: string;
  /**
   * Set when the event is about a device node (its presence, drift, enrolment): then only its owner (while a
   * member, admin or owner), the group's owners and admins, and platform admins receive it, as only they
   * read its detail (services/networks/device-node-privacy.ts). null owner: a device enrolled with a key.
   */
  device?: { ownerId: string | null };
}
