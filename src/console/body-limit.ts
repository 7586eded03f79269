import type { MiddlewareHandler } from "hono";
import { MAX_BODY_BYTES, readBoundedBody } from "../lib/bounded-body";

/**
 * The console's forms get the API's limit and the API's way of refusing (lib/bounded-body.ts): a body over
 * 64 KiB, chunked or declared, is read to its end and answered 413 with a plain page. Hono's stock limiter
 * stopped reading mid-stream, which under `wrangler dev` answered the refused form, and requests queued
 * behind it, 503 "Your worker restarted mid-request" or a reset. Runs before the CSRF check buffers the form.
 */
export const limitFormBody = (): MiddlewareHandler => async (c, next) => {
  if (!c.req.raw.body) return next();
  const bytes = await readBoundedBody(c.req.raw);
  if (bytes === "too large") return c.text(`Refused: the form is larger than ${MAX_BODY_BYTES / 1024} KiB.`, 413);
  c.req.raw = new Request(c.req.raw, { body: bytes });
  return next();
};
