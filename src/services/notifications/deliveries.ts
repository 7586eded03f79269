import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type DeliveryStatus, notificationDeliveries, notificationEvents } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { ordering, pastCursor } from "../audit/page-order";

/** A delivery with the event it carries. */
export { DELIVERY_STATUSES } from "../../db/schema";
export type DeliveryRow = { delivery: typeof notificationDeliveries.$inferSelect; event: typeof notificationEvents.$inferSelect };

const joined = (db: Db) =>
  db
    .select({ delivery: notificationDeliveries, event: notificationEvents })
    .from(notificationDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, notificationDeliveries.eventId));

/** A delivery belongs to the account whose channel it went to; others get 404. */
export async function findDelivery(db: Db, userId: string, deliveryId: string): Promise<DeliveryRow> {
  const row = await joined(db)
    .where(and(eq(notificationDeliveries.id, deliveryId), eq(notificationDeliveries.userId, userId)))
    .get();
  if (!row) throw notFound("Delivery");
  return row;
}

export interface DeliveryQuery {
  limit: number;
  cursor?: string;
  order: "asc" | "desc";
  channelId?: string;
  status?: DeliveryStatus;
  eventType?: string;
}

/** One page's rows plus one (for toPage), newest or oldest first, with the paging keys on top. */
export async function listDeliveries(db: Db, userId: string, query: DeliveryQuery) {
  const rows = await joined(db)
    .where(
      and(
        eq(notificationDeliveries.userId, userId),
        query.channelId ? eq(notificationDeliveries.channelId, query.channelId) : undefined,
        query.status ? eq(notificationDeliveries.status, query.status) : undefined,
        query.eventType ? eq(notificationEvents.type, query.eventType) : undefined,
        pastCursor(notificationDeliveries, query.cursor, query.order),
      ),
    )
    .orderBy(...ordering(notificationDeliveries, query.order))
    .limit(query.limit + 1)
    .all();
  return rows.map((row) => ({ ...row, createdAt: row.delivery.createdAt, id: row.delivery.id }));
}
