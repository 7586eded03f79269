import { ApiError } from "../../lib/errors";
import { createRouter } from "../../lib/create-router";
import { IMMUTABLE, serveStaticAsset } from "../../lib/static-assets";
import { guardedRouter } from "../../middleware/guarded-router";
import { installScript } from "./install-script";
import { readWgoManifest, WGO_PATH } from "./wgo-manifest";
import * as handlers from "./wgo.handlers";
import * as routes from "./wgo.routes";

/**
 * wgo from the control plane itself (issue 47): the server's version, the install script and the package it
 * fetches, all under /api/v1 (the origin's other paths are the console's). The script and the package are not
 * JSON and stay out of the OpenAPI document, like /docs.
 */
export const wgoRouter = createRouter()
  .route("/", guardedRouter("public").openapi(routes.version, handlers.version))
  .get("/install.sh", async (c) => {
    const manifest = await readWgoManifest(c);
    if (!manifest) throw new ApiError("not_found", "This deployment was built without wgo's package (scripts/build-assets.mjs)");
    const origin = new URL(c.req.url).origin;
    c.header("Cache-Control", "no-store"); // it names the current package
    return c.body(installScript(origin, manifest, `${origin}${WGO_PATH}/${manifest.file}`), 200, {
      "Content-Type": "text/x-shellscript; charset=utf-8",
    });
  })
  .get(`${WGO_PATH.replace(/^\/api\/v1/, "")}/:file`, (c) => serveStaticAsset(c, { cacheControl: IMMUTABLE }));
