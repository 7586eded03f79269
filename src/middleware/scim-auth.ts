import type { MiddlewareHandler } from "hono";
import { inBackground } from "../lib/background";
import { unauthorized } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { liveScimToken, SCIM_TOKEN_PREFIX, touchScimToken } from "../services/scim/tokens";
import { bearerToken } from "./auth";

/**
 * The SCIM routes: a SCIM token and nothing else (a user's access token is 401 here, as a SCIM token is on
 * every other route). Looked up by hash on every request, so a revocation refuses the next one; the writes
 * re-check it in their own batch (services/scim/scim-guard.ts).
 */
export const requireScimToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = bearerToken(c.req.header("authorization"));
  if (!secret?.startsWith(SCIM_TOKEN_PREFIX)) throw unauthorized("A SCIM token is required");
  const token = await liveScimToken(c.var.db, secret);
  if (!token) throw unauthorized("The SCIM token is not valid (unknown or revoked)");
  const touch = touchScimToken(c.var.db, token);
  if (touch) void inBackground(c, "scim token last used", () => touch);
  c.set("principal", { kind: "scim", tokenId: token.id, tokenName: token.name });
  await next();
};
