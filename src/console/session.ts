import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

/**
 * The console's session is the API's own token pair, kept where page scripts cannot read it (spec 5.7):
 * httpOnly, Secure, SameSite=Lax cookies with the __Host- prefix (this origin only, path /, no Domain).
 * Lax, not Strict: a link to the console from mail or chat should arrive signed in; state-changing
 * requests are POSTs, which Lax does not carry cross-site, and which the CSRF check guards besides.
 */
export const ACCESS_COOKIE = "__Host-wgo_at";
export const REFRESH_COOKIE = "__Host-wgo_rt";
/** Refresh this long before the access token expires, so a page never forwards a token about to lapse. */
export const REFRESH_AHEAD_SECONDS = 60;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/**
 * The flags of every cookie the console sets, and of the deletion of each (a deletion is a Set-Cookie too).
 * Lax for all of them, never Strict: a browser leaves Strict cookies off every request of a navigation
 * another site started, redirects included, so after an OAuth provider's redirect the MFA step would
 * lose its cookie and the CSRF check would mint a new token (breaking the forms of other open tabs).
 */
export const HOST_COOKIE = { path: "/", secure: true, httpOnly: true, sameSite: "Lax" } as const;

export function storeSession(c: Context, pair: TokenPair, refreshMaxAgeSeconds: number) {
  setCookie(c, ACCESS_COOKIE, pair.accessToken, { ...HOST_COOKIE, maxAge: pair.expiresIn });
  setCookie(c, REFRESH_COOKIE, pair.refreshToken, { ...HOST_COOKIE, maxAge: refreshMaxAgeSeconds });
}

export function clearSession(c: Context) {
  deleteCookie(c, ACCESS_COOKIE, HOST_COOKIE);
  deleteCookie(c, REFRESH_COOKIE, HOST_COOKIE);
}

export const readSession = (c: Context) => ({
  accessToken: getCookie(c, ACCESS_COOKIE),
  refreshToken: getCookie(c, REFRESH_COOKIE),
});

/**
 * Seconds until the access token's `exp`, read without verifying (the API verifies every forwarded call;
 * the console only decides when to refresh). Undefined when the token is missing or unreadable.
 */
export function secondsLeft(accessToken: string | undefined, nowSeconds = Date.now() / 1000): number | undefined {
  const payload = accessToken?.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: unknown };
    return typeof claims.exp === "number" ? claims.exp - nowSeconds : undefined;
  } catch {
    return undefined;
  }
}
