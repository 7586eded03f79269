/**
 * Request bodies of the API and of the console's forms: at most MAX_BODY_BYTES, counted as they stream in,
 * so a missing or lying Content-Length (chunked bodies) does not get past the limit. One reader for both
 * front doors (middleware/body-limit.ts, console/body-limit.ts), because how a body is refused matters as
 * much as the limit: see `drain`.
 */
export const MAX_BODY_BYTES = 64 * 1024;

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
 * The body as bytes, or "too large" once the whole body has been read and discarded. A declared length over
 * the limit is refused without keeping a byte; otherwise at most `max` bytes are kept.
 */
export async function readBoundedBody(request: Request, max = MAX_BODY_BYTES): Promise<Uint8Array | "too large"> {
  const reader = request.body!.getReader();
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > max) {
    await drain(reader);
    return "too large";
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await drain(reader);
      return "too large";
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
