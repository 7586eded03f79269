import type { MiddlewareHandler } from "hono";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";

export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => new ApiError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes`);

/**
 * Reads the rest of a refused body and throws it away. Answering while the client is still sending leaves
 * the connection mid-request and the runtime drops it (clients saw ECONNRESET / EPIPE); under `wrangler
 * dev` the proxy's pooled connection to the Worker dies with it, so the refused request and
 * unrelated ones behind it answer 503 "Your worker restarted mid-request". Stopping mid-way (the stock
 * hono limiter), cancelling the stream, and answering a too-long Content-Length without reading all did
 * that. Nothing is kept, so the cost is the upload the client chose to send (bounded at the edge by the
 * plan's request size limit).
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away mid-body: there is nothing left to keep in step.
  }
}

/**
 * Counts streamed bytes too, so a missing or lying Content-Length (chunked bodies) does not get past the
 * limit. A declared length over the limit is refused without keeping a byte; otherwise the body is read
 * here, at most MAX_BODY_BYTES kept, and handed on as a buffer.
 */
export const limitBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const body = c.req.raw.body;
  if (!body) return next();
  const reader = body.getReader();
  const declared = Number(c.req.header("content-length") ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) {
    await drain(reader);
    throw tooLarge();
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await drain(reader);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  c.req.raw = new Request(c.req.raw, { body: bytes });
  return next();
};
