import type { Config } from "../../lib/env";
import { seal, unseal } from "../auth/secret-box";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SEAL_PURPOSE = "webhook-signing-secret";
export const SECRET_PREFIX = "whsec_";

/** 32 random bytes; the whole string (prefix included) is the HMAC key receivers use. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;

/** Sealed to the channel id, so a sealed secret copied onto another channel row does not open. */
export const sealSecret = (config: Config, channelId: string, secret: string) =>
  seal(config, SEAL_PURPOSE, encoder.encode(secret), channelId);

export const unsealSecret = async (config: Config, channelId: string, sealed: string) =>
  decoder.decode(await unseal(config, SEAL_PURPOSE, sealed, channelId));

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * `X-Overlay-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. The timestamp is
 * inside the MAC so receivers can refuse replays (docs/notifications.md shows a receiver).
 */
export async function signatureHeader(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return `t=${timestamp},v1=${hex(mac)}`;
}
