import type { Context } from "hono";
import { ApiError } from "./errors";
import type { AppEnv } from "./types";

/** Files whose URL carries their version never change: browsers and caches may keep them for a year. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * A file of dist/assets/ (wrangler.toml [assets]) at the request's own path, through the ASSETS binding.
 * With `run_worker_first` every request reaches the Worker first, so the answer passes through the app's
 * middleware like any other (request id, security headers): the asset layer alone would send neither.
 * A missing file is the API's own 404 envelope, not the asset layer's empty one.
 */
export async function serveStaticAsset(c: Context<AppEnv>, options: { cacheControl: string }): Promise<Response> {
  const stored = await c.env.ASSETS.fetch(c.req.raw);
  if (stored.status === 404) {
    await stored.body?.cancel();
    throw new ApiError("not_found", `No file at ${c.req.path}`);
  }
  // The binding's headers are immutable; a copy lets the middleware add ours.
  const response = new Response(stored.body, stored);
  if (response.ok) response.headers.set("Cache-Control", options.cacheControl);
  return response;
}
