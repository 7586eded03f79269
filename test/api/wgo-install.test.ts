// wgo from the control plane (issue 47): GET /api/v1/version names the server's version and the package it
// serves; GET /api/v1/install.sh is a script for this origin that fetches that package; the package is the
// tarball scripts/build-assets.mjs built from cli/ (dist/assets, the ASSETS binding).
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import manifestText from "../../dist/assets/api/v1/wgo/manifest.json?raw";
import packageJson from "../../package.json";

const ORIGIN = "https://overlay.example.com";
const fetchWorker = (path: string) => exports.default.fetch(new Request(`${ORIGIN}${path}`));
const manifest = JSON.parse(manifestText);

describe("wgo served by the Worker", () => {
  it("GET /api/v1/version: the server's version (package.json's) and the wgo package it serves", async () => {
    const response = await fetchWorker("/api/v1/version");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      version: packageJson.version,
      wgo: {
        version: packageJson.version,
        url: `/api/v1/wgo/wgo-${packageJson.version}.tgz`,
        sha256: manifest.sha256,
        bytes: manifest.bytes,
        minNode: "18.16",
      },
    });
  });

  it("GET /api/v1/install.sh: a shell script for this origin, the package's URL and SHA-256 in it, never cached", async () => {
    const response = await fetchWorker("/api/v1/install.sh");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/x-shellscript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const script = await response.text();
    expect(script.startsWith("#!/bin/sh\n")).toBe(true);
    expect(script).toContain(`ORIGIN='${ORIGIN}'`);
    expect(script).toContain(`'${ORIGIN}/api/v1/wgo/wgo-${packageJson.version}.tgz' '${manifest.sha256}' "$PREFIX" "$(command -v node)"`);
    expect(script).toContain("wgo needs Node.js 18.16 or newer");
  });

  it("the package is served with an immutable cache, as built; another file is the API's 404", async () => {
    const response = await fetchWorker(`/api/v1/wgo/wgo-${packageJson.version}.tgz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(manifest.bytes);
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
    expect(digest).toBe(manifest.sha256);
    const missing = await fetchWorker("/api/v1/wgo/wgo-9.9.9.tgz");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
