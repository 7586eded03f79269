import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { HOST_COOKIE } from "./session";
import type { ConsoleEnv } from "./types";

/**
 * CSRF defence for every state-changing console route, two independent checks:
 * 1. the request comes from this origin: `Sec-Fetch-Site` (sent by every current browser) is same-origin
 *    or none (typed URL), else `Origin` equals ours; a request carrying neither is not from a browser form.
 * 2. a synchronizer token: a random value in a __Host- cookie that forms echo in a hidden `_csrf` field
 *    (double submit). A cross-site page can make the browser send the cookie but cannot read it to echo it.
 * Refused requests answer 403 with a plain page, before any API call is made.
 */
export const CSRF_COOKIE = "__Host-wgo_csrf";
export const CSRF_FIELD = "_csrf";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function randomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Compares in time independent of where the strings differ. */
function sameToken(a: string, b: string) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function fromThisOrigin(request: Request) {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  return origin !== null && origin === new URL(request.url).origin;
}

async function submittedToken(request: Request) {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return undefined;
  // A body that does not parse as the form it claims to be (a bad multipart boundary) carries no token.
  const form = await request
    .clone()
    .formData()
    .catch(() => undefined);
  const value = form?.get(CSRF_FIELD);
  return typeof value === "string" ? value : undefined;
}

export const csrf = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  let token = getCookie(c, CSRF_COOKIE);
  if (!SAFE_METHODS.has(c.req.method)) {
    const submitted = await submittedToken(c.req.raw);
    if (!fromThisOrigin(c.req.raw) || !token || !submitted || !sameToken(token, submitted)) {
      return c.text("Refused: this form did not come from the console (CSRF check). Reload the page and try again.", 403);
    }
  }
  if (!token) {
    token = randomToken();
    setCookie(c, CSRF_COOKIE, token, HOST_COOKIE);
  }
  c.set("csrfToken", token);
  await next();
};
