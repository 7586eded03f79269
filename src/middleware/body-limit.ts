import type { MiddlewareHandler } from "hono";
import { MAX_BODY_BYTES, readBoundedBody } from "../lib/bounded-body";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";

export { MAX_BODY_BYTES };

/**
 * The API's body limit: a body over MAX_BODY_BYTES (declared or streamed) is read to its end, discarded and
 * answered 413 `payload_too_large` (lib/bounded-body.ts says why it is read to the end); a body within it is
 * handed on as a buffer.
 */
export const limitBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.req.raw.body) return next();
  const bytes = await readBoundedBody(c.req.raw);
  if (bytes === "too large") throw new ApiError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  c.req.raw = new Request(c.req.raw, { body: bytes });
  return next();
};
