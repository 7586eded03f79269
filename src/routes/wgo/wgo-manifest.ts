import type { Context } from "hono";
import { API_BASE } from "../../lib/api-base";
import type { AppEnv } from "../../lib/types";

/** Where scripts/wgo-package.mjs puts wgo's package and its manifest in dist/assets/ (its URL path). */
export const WGO_PATH = `${API_BASE}/wgo`;

export interface WgoManifest {
  version: string;
  file: string;
  bytes: number;
  sha256: string;
  minNode: string;
}

/** The manifest built beside the package (ASSETS binding); null when the assets were built without it. */
export async function readWgoManifest(c: Context<AppEnv>): Promise<WgoManifest | null> {
  const stored = await c.env.ASSETS.fetch(new Request(new URL(`${WGO_PATH}/manifest.json`, c.req.url)));
  if (!stored.ok) {
    await stored.body?.cancel();
    return null;
  }
  const manifest = (await stored.json()) as Partial<WgoManifest>;
  const valid = ["version", "file", "sha256", "minNode"].every((key) => typeof manifest[key as keyof WgoManifest] === "string");
  return valid && /^wgo-[\w.-]+\.tgz$/.test(manifest.file ?? "") ? (manifest as WgoManifest) : null;
}
