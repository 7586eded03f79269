import { getConfig } from "../../lib/env";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { sendTestNotification } from "../../services/notifications/channel-test";
import * as channels from "../../services/notifications/channels";
import type * as routes from "./channels.routes";
import { presentChannel } from "./channels.schemas";
import { presentDelivery } from "./deliveries.schemas";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const rows = await channels.listChannels(c.var.db, userOf(c).userId);
  // At most 10 per account (LIMITS), so one page always holds them all.
  return c.json({ items: rows.map(presentChannel), nextCursor: null }, 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { channel, secret } = await channels.createChannel(
    c.var.db,
    getConfig(c.env),
    userOf(c).userId,
    c.req.valid("json"),
    auditOf(c, 201),
  );
  return c.json({ ...presentChannel(channel), ...(secret ? { secret } : {}) }, 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(presentChannel(await channels.ownChannel(c.var.db, userOf(c).userId, c.req.valid("param").id)), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const channel = await channels.updateChannel(
    c.var.db,
    getConfig(c.env),
    userOf(c).userId,
    c.req.valid("param").id,
    c.req.valid("json"),
    auditOf(c, 200),
  );
  return c.json(presentChannel(channel), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await channels.deleteChannel(c.var.db, userOf(c).userId, c.req.valid("param").id, auditOf(c, 204));
  return c.body(null, 204);
};

export const rotateSecret: AppRouteHandler<typeof routes.rotateSecret> = async (c) => {
  const rotated = await channels.rotateSecret(c.var.db, getConfig(c.env), userOf(c).userId, c.req.valid("param").id, auditOf(c, 200));
  return c.json({ ...presentChannel(rotated.channel), secret: rotated.secret }, 200);
};

export const test: AppRouteHandler<typeof routes.test> = async (c) => {
  const delivery = await sendTestNotification(c.var.db, getConfig(c.env), userOf(c).userId, c.req.valid("param").id, auditOf(c, 201));
  return c.json(presentDelivery(delivery), 201);
};
