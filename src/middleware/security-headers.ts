import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/types";

/**
 * Headers for an API that browsers should never sniff, frame, cache or hand to another origin.
 * There is deliberately no CORS: the CLI sends bearer tokens directly and the web front end calls the
 * API from its own server, so no browser origin needs cross-origin reads (docs/security.md).
 */
export function applySecurityHeaders(headers: Headers, options: { https?: boolean } = {}) {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  // Tokens, configs and enrolment secrets travel in bodies: no shared or browser cache may keep them.
  // Routes that revalidate on purpose (DNS artifacts: ETag + no-cache) keep their own policy.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  // Data may run nothing. The one page (/docs) brings its own, still strict, policy (routes/docs/docs-page.ts).
  if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  }
  if (options.https) headers.set("Strict-Transport-Security", "max-age=31536000");
}

export const securityHeaders = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  applySecurityHeaders(c.res.headers, { https: new URL(c.req.url).protocol === "https:" });
};
