import { asc, eq } from "drizzle-orm";
import { notificationChannels } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { nowIso } from "../../lib/ids";
import type { AppRouteHandler } from "../../lib/types";
import { sendTestNotification } from "../../services/notifications/channel-test";
import { checkTarget, createChannel, ownChannel, rotateSecret as rotate } from "../../services/notifications/channels";
import type * as routes from "./channels.routes";
import { presentChannel } from "./channels.schemas";
import { findDelivery } from "./deliveries.handlers";

export const listChannels = (db: Parameters<typeof ownChannel>[0], userId: string) =>
  db.select().from(notificationChannels).where(eq(notificationChannels.userId, userId))
    .orderBy(asc(notificationChannels.createdAt), asc(notificationChannels.id)).all();

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const rows = await listChannels(c.var.db, c.var.auth.userId);
  // At most 10 per account (LIMITS), so one page always holds them all.
  return c.json({ items: rows.map(presentChannel), nextCursor: null }, 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { channel, secret } = await createChannel(c.var.db, getConfig(c.env), c.var.auth.userId, c.req.valid("json"));
  return c.json({ ...presentChannel(channel), ...(secret ? { secret } : {}) }, 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const channel = await ownChannel(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  return c.json(presentChannel(channel), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const channel = await ownChannel(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  const body = c.req.valid("json");
  const target = body.target === undefined ? channel.target : await checkTarget(c.var.db, getConfig(c.env), channel.userId, channel.type, body.target);
  const [row] = await c.var.db.update(notificationChannels).set({
    target, events: body.events ? [...new Set(body.events)] : channel.events, enabled: body.enabled ?? channel.enabled, updatedAt: nowIso(),
  }).where(eq(notificationChannels.id, channel.id)).returning();
  return c.json(presentChannel(row!), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const channel = await ownChannel(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  await c.var.db.delete(notificationChannels).where(eq(notificationChannels.id, channel.id));
  return c.body(null, 204);
};

export const rotateSecret: AppRouteHandler<typeof routes.rotateSecret> = async (c) => {
  const channel = await ownChannel(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  const rotated = await rotate(c.var.db, getConfig(c.env), channel);
  return c.json({ ...presentChannel(rotated.channel), secret: rotated.secret }, 200);
};

export const test: AppRouteHandler<typeof routes.test> = async (c) => {
  const channel = await ownChannel(c.var.db, c.var.auth.userId, c.req.valid("param").id);
  const deliveryId = await sendTestNotification(c.var.db, getConfig(c.env), channel);
  return c.json(await findDelivery(c.var.db, c.var.auth.userId, deliveryId), 201);
};
