import type { notificationEvents } from "../../db/schema";
import type { MailMessage } from "../mail/mail.types";

type EventRow = typeof notificationEvents.$inferSelect;
type Named = { id?: string; name?: string } | undefined;

const nameOf = (thing: unknown) => {
  const named = thing as Named;
  return named?.name ?? named?.id ?? "?";
};

/** One line a human reads in a subject; the JSON body carries the details. */
export function summarize(event: EventRow): string {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case "node.offline":
      return `Node ${nameOf(data.node)} is offline (last seen ${String(data.lastSeenAt)})`;
    case "node.online":
      return `Node ${nameOf(data.node)} is online again`;
    case "gateway.down":
      return `Gateway ${nameOf(data.gateway)} is down (${String(data.reason)})`;
    case "gateway.up":
      return `Gateway ${nameOf(data.gateway)} is up again`;
    case "config.drift":
      return `Node ${nameOf(data.node)} runs routing revision ${String(data.appliedRevision)}, behind ${String(data.desiredRevision)}`;
    case "policy.changed":
      return `Routing policy ${nameOf(data.policy)} was ${String(data.action)}`;
    case "device.enrolled":
      return `Device ${nameOf(data.device)} enrolled`;
    case "gateway.failover":
      return `Gateway pool ${nameOf(data.pool)} failed over from ${String(data.from)} to ${String(data.to)} (${String(data.reason)})`;
    default:
      return "Test notification";
  }
}

/** The webhook body: the event, identical for every receiver of it (the event id is the idempotency key). */
export const webhookBody = (event: EventRow) =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    networkId: event.networkId,
    groupId: event.groupId,
    subjectId: event.subjectId,
    data: event.data,
  });

export const emailMessage = (event: EventRow, to: string): MailMessage => ({
  to,
  subject: `[WireGuard overlay] ${summarize(event)}`,
  text: [
    summarize(event),
    "",
    `Event: ${event.type} (${event.id}) at ${event.createdAt}`,
    event.networkId ? `Network: ${event.networkId}` : "",
    "",
    JSON.stringify(event.data, null, 2),
    "",
    "Change what you receive with /api/v1/notifications/channels.",
  ].join("\n"),
});
