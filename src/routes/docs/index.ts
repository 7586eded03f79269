import { createRouter } from "../../lib/create-router";
import { IMMUTABLE, serveStaticAsset } from "../../lib/static-assets";
import { DOCS_PAGE_CSP, docsPage } from "./docs-page";
import { DOCS_ASSETS_PATH } from "./reference-ui";

/**
 * The browsable API reference (GET /docs) and its files, served by this Worker: the page works with no
 * internet access. Not part of the OpenAPI document (like /openapi.json itself).
 */
export const docsRouter = createRouter()
  .get("/docs", (c) => {
    c.header("Content-Security-Policy", DOCS_PAGE_CSP);
    // The page names the current bundle version: it must never be cached, unlike the bundle.
    c.header("Cache-Control", "no-store");
    return c.html(docsPage());
  })
  .get(`${DOCS_ASSETS_PATH}/:file`, (c) => serveStaticAsset(c, { cacheControl: IMMUTABLE }));
