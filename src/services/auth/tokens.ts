import { createHmac, createHash } from "node:crypto";
import type { Config } from "../../lib/env";

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

export const randomToken = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/**
 * The token that replaces `token` on rotation. Deriving it (keyed by TOKEN_SECRET) instead of drawing
 * it at random lets a retry inside the grace window receive the very same successor, and makes two
 * concurrent rotations of one token converge on one row through the unique hash index.
 */
export const successorOf = (config: Config, token: string) =>
  createHmac("sha256", config.TOKEN_SECRET).update(`refresh-successor:${token}`).digest("base64url");
