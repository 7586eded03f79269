import type { Context } from "hono";
import { ApiError } from "../lib/errors";
import type { AppEnv, AppOpenAPI } from "../lib/types";
import { newId } from "../lib/ids";
import { respondWithError } from "./error-handler";
import { applySecurityHeaders } from "./security-headers";

type RoutePattern = { method: string; regex: RegExp };

const toRegex = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, (ch) => (ch === "*" ? ".*" : `\\${ch}`)).replace(/\\?:[A-Za-z_]+/g, "[^/]+")}$`);

/** Unknown path → 404; known path, other method → 405 with Allow (never a bare 404 for a real resource). */
export function notFoundHandler(app: AppOpenAPI) {
  let patterns: RoutePattern[] | undefined;
  return (c: Context<AppEnv>) => {
    patterns ??= app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ method: route.method, regex: toRegex(route.path) }));
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(c.req.path)).map((p) => p.method))];
    const response =
      allowed.length > 0
        ? respondWithError(
            c,
            new ApiError("method_not_allowed", `${c.req.method} is not supported here`, {
              headers: { Allow: allowed.join(", ") },
            }),
          )
        : respondWithError(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`));
    // Paths outside the base path (e.g. /api/groups after dot segments) never pass the base path's
    // middleware, so they would leave without the X-Request-Id and security headers every response carries.
    if (!c.var.requestId) {
      response.headers.set("X-Request-Id", newId("req"));
      applySecurityHeaders(response.headers);
    }
    return response;
  };
}
