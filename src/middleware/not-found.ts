import type { Context } from "hono";
import { ApiError } from "../lib/errors";
import type { AppEnv, AppOpenAPI } from "../lib/types";
import { respondWithError } from "./error-handler";

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
    if (allowed.length > 0) {
      return respondWithError(c, new ApiError("method_not_allowed", `${c.req.method} is not supported here`, {
        headers: { Allow: allowed.join(", ") },
      }));
    }
    return respondWithError(c, new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`));
  };
}
