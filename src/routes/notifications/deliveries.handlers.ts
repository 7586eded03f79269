import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notificationDeliveries, notificationEvents } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { conflict, notFound } from "../../lib/errors";
import { toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { ordering, pastCursor } from "../../services/audit/page-order";
import { redeliver } from "../../services/notifications/channel-test";
import type * as routes from "./deliveries.routes";
import { presentDelivery } from "./deliveries.schemas";

const joined = (db: Db) => db.select({ delivery: notificationDeliveries, event: notificationEvents })
  .from(notificationDeliveries).innerJoin(notificationEvents, eq(notificationEvents.id, notificationDeliveries.eventId));

/** A delivery belongs to the account whose channel it went to; others get 404. */
export async function findDelivery(db: Db, userId: string, deliveryId: string) {
  const row = await joined(db).where(and(eq(notificationDeliveries.id, deliveryId), eq(notificationDeliveries.userId, userId))).get();
  if (!row) throw notFound("Delivery");
  return presentDelivery(row);
}

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor, order, channelId, status, eventType } = c.req.valid("query");
  const rows = await joined(c.var.db).where(and(
    eq(notificationDeliveries.userId, c.var.auth.userId),
    channelId ? eq(notificationDeliveries.channelId, channelId) : undefined,
    status ? eq(notificationDeliveries.status, status) : undefined,
    eventType ? eq(notificationEvents.type, eventType) : undefined,
    pastCursor(notificationDeliveries, cursor, order),
  )).orderBy(...ordering(notificationDeliveries, order)).limit(limit + 1).all();
  const page = toPage(rows.map((row) => ({ ...row, createdAt: row.delivery.createdAt, id: row.delivery.id })), limit, presentDelivery);
  return c.json(page, 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(await findDelivery(c.var.db, c.var.auth.userId, c.req.valid("param").id), 200);

export const retry: AppRouteHandler<typeof routes.retry> = async (c) => {
  const current = await findDelivery(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  if (current.status === "pending") throw conflict("The delivery is still pending; it is retried on its schedule");
  await redeliver(c.var.db, getConfig(c.env), current.id);
  return c.json(await findDelivery(c.var.db, c.var.auth.userId, current.id), 200);
};
