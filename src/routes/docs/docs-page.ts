import { html } from "hono/html";
import { API_BASE } from "../../lib/api-base";
import { SCALAR_BUNDLE_URL } from "./reference-ui";

/**
 * Scalar's options, read by its bundle from `data-configuration` (its "HTML API"): no inline script to
 * allow in the CSP. Everything that would reach a third party is off: the fonts it loads from
 * fonts.scalar.com, telemetry, the developer toolbar (which offers to upload the document to Scalar) and the
 * AI agent (which calls Scalar's servers).
 */
const SCALAR_CONFIGURATION = {
  url: `${API_BASE}/openapi.json`,
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
};

/**
 * The page's own policy (middleware/security-headers.ts keeps it instead of the API's `default-src 'none'`): scripts
 * only from this origin, requests only to this origin (the document, and "Test request" to this API),
 * nothing of another origin at all, never framed.
 * style-src needs 'unsafe-inline': Scalar (Vue) injects <style> elements and style attributes at run time,
 * with no nonce to give them. Inline styles cannot run code; scripts stay strict (no 'unsafe-inline', no
 * 'unsafe-eval': the bundle only probes `new Function` for zod's optional fast path and falls back).
 */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The whole page: a configuration element and the pinned bundle, which mounts the reference before it. */
export const docsPage = () => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>WireGuard overlay API</title>
    <!-- No icon: a browser would otherwise ask for /favicon.ico and log the 404. -->
    <link rel="icon" href="data:," />
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${JSON.stringify(SCALAR_CONFIGURATION)}"></script>
    <script src="${SCALAR_BUNDLE_URL}"></script>
  </body>
</html>
`;
