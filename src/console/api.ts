import type { Context, MiddlewareHandler } from "hono";
import { createApiClient } from "../../client/index.ts";
import { getConfig } from "../lib/env";
import { clearSession, REFRESH_AHEAD_SECONDS, readSession, secondsLeft, storeSession } from "./session";
import type { ConsoleEnv } from "./types";

/** How the console reaches the API: the Worker's own API app, in-process (no network hop, same checks). */
export type ApiFetch = (request: Request, env: ConsoleEnv["Bindings"], ctx: ExecutionContext<unknown>) => Response | Promise<Response>;

/**
 * The typed client (client/) for one console request: bearer token from the session cookie, and the
 * visitor's address forwarded so the API's per-address sign-in throttles see the person, not the console.
 */
export function apiFor(c: Context<ConsoleEnv>, apiFetch: ApiFetch, token: string | undefined) {
  const address = c.req.header("cf-connecting-ip");
  return createApiClient({
    baseUrl: new URL(c.req.url).origin,
    fetch: async (request) => apiFetch(request, c.env, c.executionCtx as ExecutionContext),
    token,
    headers: address ? { "cf-connecting-ip": address } : {},
  });
}

/**
 * Sets `api` (and `user` when signed in) for every console page. An access token close to expiry is
 * refreshed first (the API rotates the refresh token), so pages never forward a token about to lapse;
 * a refresh the API refuses (revoked, expired) ends the console session.
 */
export const session =
  (apiFetch: ApiFetch): MiddlewareHandler<ConsoleEnv> =>
  async (c, next) => {
    let { accessToken, refreshToken } = readSession(c);
    const left = secondsLeft(accessToken);
    if (refreshToken && (left === undefined || left < REFRESH_AHEAD_SECONDS)) {
      const refreshed = await apiFor(c, apiFetch, undefined).POST("/api/v1/auth/refresh", { body: { refreshToken } });
      if (refreshed.data) {
        storeSession(c, refreshed.data, getConfig(c.env).REFRESH_TOKEN_TTL_SECONDS);
        accessToken = refreshed.data.accessToken;
      } else {
        clearSession(c);
        accessToken = undefined;
      }
    }
    const api = apiFor(c, apiFetch, accessToken);
    c.set("api", api);
    if (accessToken) {
      const me = await api.GET("/api/v1/users/me");
      if (me.data) c.set("user", me.data);
      else if (me.response.status === 401) clearSession(c);
    }
    await next();
  };
