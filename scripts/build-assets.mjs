#!/usr/bin/env node
// The Worker's static assets (wrangler.toml [assets], dist/assets/): files the Worker serves itself so that
// pages work without internet access. Each file sits at its URL path; the Worker reaches them through the
// ASSETS binding and adds its own headers (src/lib/static-assets.ts).
//
// Today: wgo's package (scripts/wgo-package.mjs) and the API reference UI, Scalar's browser bundle from the pinned npm package, at a URL carrying its
// version (cacheable forever: a new version is a new URL). Run by `npm run dev`, `npm run deploy` and the
// vitest config (the workers tests and the e2e harness serve the same directory).
//
// Safe to run while another test run reads the directory: a file is replaced by a rename, only when its bytes
// change, and only stale versions are removed.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWgoPackage } from "./wgo-package.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist/assets");
const SCALAR = join(ROOT, "node_modules/@scalar/api-reference");
// Same path as the Worker's route (src/routes/docs/reference-ui.ts).
const DOCS_ASSETS = join(OUT, "api/v1/docs/assets");

function copyIfChanged(from, to) {
  const bytes = readFileSync(from);
  try {
    if (readFileSync(to).equals(bytes)) return;
  } catch {
    // not there yet
  }
  const temporary = `${to}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, to);
}

const { version } = JSON.parse(readFileSync(join(SCALAR, "package.json"), "utf8"));
const name = `api-reference-${version}.js`;
mkdirSync(DOCS_ASSETS, { recursive: true });
copyIfChanged(join(SCALAR, "dist/browser/standalone.js"), join(DOCS_ASSETS, name));
// The console's phone page draws its QR code in the browser with qrcode-generator (src/console/phone-script.ts),
// at a URL carrying the pinned version.
const QR = join(ROOT, "node_modules/qrcode-generator");
const qrVersion = JSON.parse(readFileSync(join(QR, "package.json"), "utf8")).version;
mkdirSync(join(OUT, "assets"), { recursive: true });
copyIfChanged(join(QR, "dist/qrcode.js"), join(OUT, `assets/qrcode-generator-${qrVersion}.js`));

for (const stale of readdirSync(DOCS_ASSETS).filter((file) => file !== name && !file.endsWith(".tmp"))) {
  rmSync(join(DOCS_ASSETS, stale), { force: true });
}

// wgo itself, for `curl -fsSL <api>/api/v1/install.sh | sh` (scripts/wgo-package.mjs, docs/cli.md "Installing").
buildWgoPackage(ROOT, OUT);
