import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notificationDeliveries, notificationEvents } from "../../db/schema";
import type { Config } from "../../lib/env";
import { conflict } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { type Channel, ownChannel } from "./channels";
import { findDelivery } from "./deliveries";
import { TEST_EVENT } from "./event-types";
import { processDeliveries } from "./queue";

/**
 * A notification.test event for one of the caller's channels, attempted before answering, so the caller
 * sees at once whether it arrived. A failed test retries like any delivery (the receiver may be starting
 * up). The event, its delivery and the audit row (naming the delivery) commit together. Returns the delivery.
 */
export async function sendTestNotification(db: Db, config: Config, userId: string, channelId: string, audit: AuditContext) {
  const channel: Channel = await ownChannel(db, userId, channelId);
  const now = nowIso();
  const eventId = newId("nev");
  const deliveryId = newId("ndl");
  await batchWithAudit(
    db,
    [
      db.insert(notificationEvents).values({
        id: eventId,
        type: TEST_EVENT,
        networkId: null,
        groupId: null,
        subjectId: channel.id,
        data: { channel: { id: channel.id, type: channel.type }, message: "Test notification: this channel works." },
        createdAt: now,
      }),
      db.insert(notificationDeliveries).values({
        id: deliveryId,
        eventId,
        channelId: channel.id,
        userId: channel.userId,
        status: "pending",
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }),
    ],
    audit,
    platformEvent("notification-channel.tested", deliveryId),
  );
  await processDeliveries({ db, config }, { deliveryIds: [deliveryId] });
  return findDelivery(db, userId, deliveryId);
}

/**
 * Queues a finished delivery of the caller's again from scratch (a full retry schedule) and attempts it
 * now. Its audit row carries the group and network of the event it delivers.
 */
export async function retryDelivery(db: Db, config: Config, userId: string, deliveryId: string, audit: AuditContext) {
  const { delivery, event } = await findDelivery(db, userId, deliveryId);
  if (delivery.status === "pending") throw conflict("The delivery is still pending; it is retried on its schedule");
  const now = nowIso();
  await batchWithAudit(
    db,
    [
      db
        .update(notificationDeliveries)
        .set({
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          lastError: null,
          lastStatusCode: null,
          deliveredAt: null,
          updatedAt: now,
        })
        .where(eq(notificationDeliveries.id, delivery.id)),
    ],
    audit,
    { action: "notification-delivery.retried", resourceId: delivery.id, groupId: event.groupId, networkId: event.networkId },
  );
  await processDeliveries({ db, config }, { deliveryIds: [delivery.id] });
  return findDelivery(db, userId, delivery.id);
}
