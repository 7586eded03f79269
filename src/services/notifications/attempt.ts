import type { Db } from "../../db/client";
import type { notificationChannels, notificationDeliveries, notificationEvents } from "../../db/schema";
import type { Config } from "../../lib/env";
import { createMailer } from "../mail/mailer";
import { TEST_EVENT } from "./event-types";
import { emailMessage, webhookBody } from "./payload";
import { signatureHeader, unsealSecret } from "./signing";
import { checkWebhookUrl } from "./webhook-url";

export interface AttemptInput {
  delivery: typeof notificationDeliveries.$inferSelect;
  event: typeof notificationEvents.$inferSelect;
  channel: typeof notificationChannels.$inferSelect;
}

/** `retry: false` ends the delivery at once: trying again cannot help (disabled channel, refused URL, no mail transport). */
export type AttemptOutcome =
  | { ok: true; statusCode: number | null }
  | { ok: false; statusCode: number | null; error: string; retry: boolean };

const failed = (error: string, retry: boolean, statusCode: number | null = null): AttemptOutcome => ({
  ok: false,
  statusCode,
  error,
  retry,
});

async function postWebhook(config: Config, { delivery, event, channel }: AttemptInput): Promise<AttemptOutcome> {
  const verdict = checkWebhookUrl(channel.target, config.WEBHOOK_ALLOW_HTTP_LOOPBACK);
  if (!verdict.ok) return failed(`target refused: ${verdict.reason}`, false);
  if (!channel.secretSealed) return failed("channel has no signing secret", false);
  const secret = await unsealSecret(config, channel.id, channel.secretSealed).catch(() => null);
  if (!secret) return failed("signing secret unreadable (TOKEN_SECRET rotated?): rotate the channel secret", false);
  const body = webhookBody(event);
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "wg-overlay-webhooks/1",
    "X-Overlay-Event": event.type,
    "X-Overlay-Event-Id": event.id,
    "X-Overlay-Delivery": delivery.id,
    "X-Overlay-Signature": await signatureHeader(secret, Math.floor(Date.now() / 1000), body),
  };
  let response: Response;
  try {
    // Never follow redirects: a 3xx counts as a failure, so a public URL cannot bounce the request inward.
    response = await fetch(verdict.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS),
    });
  } catch (error) {
    const name = (error as Error).name;
    const timedOut = name === "TimeoutError" || name === "AbortError";
    return failed(timedOut ? `no answer within ${config.WEBHOOK_TIMEOUT_MS} ms` : `request failed: ${(error as Error).message}`, true);
  }
  // The receiver's body is never stored (it is theirs, and may be large).
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status };
  if (response.status >= 300 && response.status < 400)
    return failed(`redirect (HTTP ${response.status}) not followed`, true, response.status);
  return failed(`HTTP ${response.status}`, true, response.status);
}

async function sendEmail(config: Config, db: Db, { event, channel }: AttemptInput): Promise<AttemptOutcome> {
  if (config.MAIL_TRANSPORT === "none") return failed("MAIL_TRANSPORT is none: the platform sends no mail", false);
  try {
    await createMailer(config, db).send(emailMessage(event, channel.target));
    return { ok: true, statusCode: null };
  } catch (error) {
    return failed(`mail transport: ${(error as Error).message}`, true);
  }
}

/** One attempt at one delivery; never throws. */
export async function attemptDelivery(config: Config, db: Db, input: AttemptInput): Promise<AttemptOutcome> {
  // A channel test is how one checks a channel before enabling it, so it ignores `enabled`.
  if (!input.channel.enabled && input.event.type !== TEST_EVENT) return failed("channel disabled", false);
  try {
    return input.channel.type === "webhook" ? await postWebhook(config, input) : await sendEmail(config, db, input);
  } catch (error) {
    return failed(`unexpected: ${(error as Error).message}`, true);
  }
}
