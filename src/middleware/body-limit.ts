import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";

export const MAX_BODY_BYTES = 64 * 1024;

/** Counts streamed bytes too, so a missing or lying Content-Length does not get past the limit. */
export const limitBody = (): MiddlewareHandler<AppEnv> =>
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    },
  });
