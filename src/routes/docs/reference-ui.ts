import { API_BASE } from "../../lib/api-base";

/**
 * Scalar's API reference UI, pinned: the exact version of `@scalar/api-reference` in package.json. The
 * Worker serves its browser bundle itself (scripts/build-assets.mjs copies it to this path in dist/assets/),
 * so the docs page needs no CDN. Bumping the package means bumping this too: the docs test compares the
 * bundle at this URL with the installed one.
 */
export const SCALAR_VERSION = "1.46.4";

/** Where the docs page's files live; the version in the name makes the URL immutable. */
export const DOCS_ASSETS_PATH = "/docs/assets";
export const SCALAR_BUNDLE_URL = `${API_BASE}${DOCS_ASSETS_PATH}/api-reference-${SCALAR_VERSION}.js`;
