import type { AppRouteHandler } from "../../lib/types";
import { SERVER_VERSION } from "../../lib/version";
import { readWgoManifest, WGO_PATH } from "./wgo-manifest";
import type * as routes from "./wgo.routes";

export const version: AppRouteHandler<typeof routes.version> = async (c) => {
  const manifest = await readWgoManifest(c);
  const wgo = manifest
    ? {
        version: manifest.version,
        url: `${WGO_PATH}/${manifest.file}`,
        sha256: manifest.sha256,
        bytes: manifest.bytes,
        minNode: manifest.minNode,
      }
    : null;
  return c.json({ version: SERVER_VERSION, wgo }, 200);
};
