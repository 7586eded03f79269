import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notificationChannels, notificationDeliveries, notificationEvents } from "../../db/schema";
import type { Config } from "../../lib/env";
import { newId, nowIso } from "../../lib/ids";
import { TEST_EVENT } from "./event-types";
import { processDeliveries } from "./queue";

/**
 * A notification.test event for one channel, attempted before answering, so the caller sees at once
 * whether it arrived. A failed test retries like any delivery (the receiver may be starting up).
 */
export async function sendTestNotification(db: Db, config: Config, channel: typeof notificationChannels.$inferSelect) {
  const now = nowIso();
  const eventId = newId("nev");
  const deliveryId = newId("ndl");
  await db.batch([
    db.insert(notificationEvents).values({
      id: eventId, type: TEST_EVENT, networkId: null, groupId: null, subjectId: channel.id,
      data: { channel: { id: channel.id, type: channel.type }, message: "Test notification: this channel works." }, createdAt: now,
    }),
    db.insert(notificationDeliveries).values({
      id: deliveryId, eventId, channelId: channel.id, userId: channel.userId, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now,
    }),
  ]);
  await processDeliveries({ db, config }, { deliveryIds: [deliveryId] });
  return deliveryId;
}

/** Queue a finished delivery again from scratch (a full retry schedule) and attempt it now. */
export async function redeliver(db: Db, config: Config, deliveryId: string) {
  const now = nowIso();
  await db.update(notificationDeliveries).set({
    status: "pending", attempts: 0, nextAttemptAt: now, lastError: null, lastStatusCode: null, deliveredAt: null, updatedAt: now,
  }).where(eq(notificationDeliveries.id, deliveryId));
  await processDeliveries({ db, config }, { deliveryIds: [deliveryId] });
}
