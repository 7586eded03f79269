import { Hono, type MiddlewareHandler } from "hono";
import { IMMUTABLE } from "../lib/static-assets";
import { type ApiFetch, session } from "./api";
import { CONSOLE_CSS, CONSOLE_JS } from "./assets";
import { PHONE_JS, QR_SCRIPT_URL } from "./phone-script";
import { limitFormBody } from "./body-limit";
import { csrf } from "./csrf";
import { formPageOf } from "./lost-get";
import { accountLinkRoutes } from "./routes/account-links";
import { adminRoutes } from "./routes/admin";
import { adminDirectoryRoutes } from "./routes/admin-directory";
import { adminInventoryRoutes } from "./routes/admin-inventory";
import { auditRoutes } from "./routes/audit";
import { deviceRoutes } from "./routes/devices";
import { groupRoutes } from "./routes/groups";
import { networkPageRoutes } from "./routes/network-pages";
import { networkRoutes } from "./routes/networks";
import { notificationRoutes } from "./routes/notifications";
import { oauthRoutes } from "./routes/oauth";
import { signInRoutes } from "./routes/sign-in";
import { tunnelRoutes } from "./routes/tunnels";
import type { ConsoleEnv, SignedInEnv } from "./types";

/**
 * The operator console, served by the same Worker at `/` (spec 5.7): server-rendered pages whose own
 * routes keep the API's tokens in httpOnly cookies and call the API with the bearer header. It is a
 * client of the API like any other (client/), so every rule and role check stays the API's.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The phone page's script posts its public key with fetch (phone-script.ts).
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.header("Content-Security-Policy", CONSOLE_CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "same-origin");
  // No other window keeps a handle on a console tab, and no other site may embed its answers as resources.
  c.header("Cross-Origin-Opener-Policy", "same-origin");
  c.header("Cross-Origin-Resource-Policy", "same-origin");
  // The session cookies are Secure (__Host-): tell the browser never to try this origin over plain HTTP.
  if (new URL(c.req.url).protocol === "https:") c.header("Strict-Transport-Security", "max-age=31536000");
  if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
};

const requireUser: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  if (!c.var.user) return c.redirect("/sign-in", 303);
  await next();
};

export function createConsole(apiFetch: ApiFetch) {
  const console = new Hono<ConsoleEnv>();
  console.use("*", securityHeaders);
  console.get("/assets/console.css", (c) =>
    c.body(CONSOLE_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
  console.get("/assets/console.js", (c) =>
    c.body(CONSOLE_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
  console.get("/assets/phone.js", (c) =>
    c.body(PHONE_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
  // qrcode-generator's browser build, copied into dist/assets/ by scripts/build-assets.mjs (the phone page's QR code).
  console.get(QR_SCRIPT_URL, async (c) => {
    const stored = await c.env.ASSETS.fetch(c.req.raw);
    if (!stored.ok) return c.text("Not found", 404);
    return c.body(await stored.text(), 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": IMMUTABLE });
  });
  // Console forms are small; the API's own limit (64 KiB), applied the API's way (read to the end, then 413),
  // refuses a larger body here before the CSRF check buffers it.
  console.use("*", limitFormBody());
  console.use("*", csrf(), session(apiFetch));
  console.route("/", signInRoutes);
  console.route("/", oauthRoutes);
  console.route("/", accountLinkRoutes);
  console.get("/", (c) => c.redirect(c.var.user ? "/networks" : "/sign-in", 303));

  const signedIn = new Hono<SignedInEnv>();
  signedIn.use("*", requireUser as unknown as MiddlewareHandler<SignedInEnv>);
  signedIn.route("/", networkRoutes);
  signedIn.route("/", networkPageRoutes);
  signedIn.route("/", groupRoutes);
  signedIn.route("/", deviceRoutes);
  signedIn.route("/", tunnelRoutes);
  signedIn.route("/", notificationRoutes);
  signedIn.route("/", auditRoutes);
  signedIn.route("/", adminRoutes);
  signedIn.route("/", adminInventoryRoutes);
  signedIn.route("/", adminDirectoryRoutes);
  console.route("/", signedIn);
  console.notFound((c) => {
    const page = c.req.method === "GET" ? formPageOf(new URL(c.req.url).pathname) : undefined;
    return page ? c.redirect(page, 303) : c.text("Not found", 404);
  });
  return console;
}
