import { and, asc, count, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { notificationChannels, users, type ChannelType } from "../../db/schema";
import type { Config } from "../../lib/env";
import { conflict, domainError, fieldError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { newWebhookSecret, sealSecret } from "./signing";
import { checkWebhookUrl } from "./webhook-url";

export const MAX_CHANNELS_PER_ACCOUNT = 10;

export type Channel = typeof notificationChannels.$inferSelect;
export { CHANNEL_TYPES } from "../../db/schema";

/** At most MAX_CHANNELS_PER_ACCOUNT, so one read holds them all. */
export const listChannels = (db: Db, userId: string) =>
  db
    .select()
    .from(notificationChannels)
    .where(eq(notificationChannels.userId, userId))
    .orderBy(asc(notificationChannels.createdAt), asc(notificationChannels.id))
    .all();

/** Only the owner reaches a channel; anyone else's is "not found" (no existence leak). */
export async function ownChannel(db: Db, userId: string, channelId: string): Promise<Channel> {
  const channel = await db
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.id, channelId), eq(notificationChannels.userId, userId)))
    .get();
  if (!channel) throw notFound("Notification channel");
  return channel;
}

/**
 * Email goes to the account's own address only: there is no address-verification flow, and without
 * one a channel would let anyone make the platform mail strangers. Webhooks pass the SSRF rules.
 */
export async function checkTarget(db: Db, config: Config, userId: string, type: ChannelType, target: string | undefined) {
  if (type === "email") {
    const user = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
    if (!user) throw notFound("User");
    if (target === undefined) return user.email;
    if (!z.email().safeParse(target).success) throw fieldError("target", "Not an email address");
    if (target.trim().toLowerCase() !== user.email) throw domainError("Email channels deliver to your own account address only");
    return user.email;
  }
  if (target === undefined) throw fieldError("target", "Webhook channels need a target URL");
  if (!z.url().safeParse(target).success) throw fieldError("target", "Not an absolute URL");
  const verdict = checkWebhookUrl(target, config.WEBHOOK_ALLOW_HTTP_LOOPBACK);
  if (!verdict.ok) throw domainError(`Webhook target refused: ${verdict.reason}`);
  return verdict.url.toString();
}

export interface NewChannel {
  type: ChannelType;
  target?: string;
  events: string[];
  enabled: boolean;
}
export interface ChannelChanges {
  target?: string;
  events?: string[];
  enabled?: boolean;
}

/** Returns the row and, for webhooks, the signing secret in clear: the only time it is shown. */
export async function createChannel(db: Db, config: Config, userId: string, input: NewChannel, audit: AuditContext) {
  const target = await checkTarget(db, config, userId, input.type, input.target);
  const [existing] = await db.select({ n: count() }).from(notificationChannels).where(eq(notificationChannels.userId, userId));
  if ((existing?.n ?? 0) >= MAX_CHANNELS_PER_ACCOUNT)
    throw conflict(`An account holds at most ${MAX_CHANNELS_PER_ACCOUNT} notification channels`);
  const id = newId("nch");
  const now = nowIso();
  const secret = input.type === "webhook" ? newWebhookSecret() : undefined;
  const channel: Channel = {
    id,
    userId,
    type: input.type,
    target,
    events: [...new Set(input.events)],
    enabled: input.enabled,
    secretSealed: secret ? await sealSecret(config, id, secret) : null,
    secretRotatedAt: secret ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  await batchWithAudit(db, [db.insert(notificationChannels).values(channel)], audit, platformEvent("notification-channel.created", id));
  return { channel, secret };
}

export async function updateChannel(
  db: Db,
  config: Config,
  userId: string,
  channelId: string,
  changes: ChannelChanges,
  audit: AuditContext,
) {
  const channel = await ownChannel(db, userId, channelId);
  const target =
    changes.target === undefined ? channel.target : await checkTarget(db, config, channel.userId, channel.type, changes.target);
  const next: Channel = {
    ...channel,
    target,
    events: changes.events ? [...new Set(changes.events)] : channel.events,
    enabled: changes.enabled ?? channel.enabled,
    updatedAt: nowIso(),
  };
  await batchWithAudit(
    db,
    [
      db
        .update(notificationChannels)
        .set({ target: next.target, events: next.events, enabled: next.enabled, updatedAt: next.updatedAt })
        .where(eq(notificationChannels.id, channel.id)),
    ],
    audit,
    platformEvent("notification-channel.updated", channel.id),
  );
  return next;
}

/** Its deliveries go with it (foreign key cascade). */
export async function deleteChannel(db: Db, userId: string, channelId: string, audit: AuditContext) {
  const channel = await ownChannel(db, userId, channelId);
  await batchWithAudit(
    db,
    [db.delete(notificationChannels).where(eq(notificationChannels.id, channel.id))],
    audit,
    platformEvent("notification-channel.deleted", channel.id),
  );
}

/** A new secret replaces the old one at once (no overlap): receivers update theirs from this answer. */
export async function rotateSecret(db: Db, config: Config, userId: string, channelId: string, audit: AuditContext) {
  const channel = await ownChannel(db, userId, channelId);
  if (channel.type !== "webhook") throw domainError("Only webhook channels have a signing secret");
  const secret = newWebhookSecret();
  const now = nowIso();
  const next: Channel = { ...channel, secretSealed: await sealSecret(config, channel.id, secret), secretRotatedAt: now, updatedAt: now };
  await batchWithAudit(
    db,
    [
      db
        .update(notificationChannels)
        .set({ secretSealed: next.secretSealed, secretRotatedAt: now, updatedAt: now })
        .where(eq(notificationChannels.id, channel.id)),
    ],
    audit,
    platformEvent("notification-channel.secret-rotated", channel.id),
  );
  return { channel: next, secret };
}
