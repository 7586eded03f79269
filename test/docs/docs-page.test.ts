import { exports } from "cloudflare:workers";
import installedBundle from "@scalar/api-reference/browser/standalone.js?raw";
import { describe, expect, it } from "vitest";
import { SCALAR_BUNDLE_URL, SCALAR_VERSION } from "../../src/routes/docs/reference-ui";
import { expectErrorIn } from "../helpers/expect-error";

const fetchPath = (path: string) => exports.default.fetch(new Request(`http://api.test${path}`));

const sha256 = async (bytes: ArrayBuffer | Uint8Array) => Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");

/** "script-src 'self'; ..." → { "script-src": ["'self'"], ... } */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("GET /api/v1/docs: the reference page", () => {
  it("loads only this origin's files: the pinned bundle, no inline script, no other origin named", async () => {
    const response = await fetchPath("/api/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const page = await response.text();

    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, body]) => ({
      src: /\bsrc="([^"]*)"/.exec(attributes!)?.[1],
      type: /\btype="([^"]*)"/.exec(attributes!)?.[1],
      body: body!.trim(),
    }));
    // One script to run, from this origin; the configuration is data (a JSON element), never code.
    expect(scripts.filter((script) => script.src)).toEqual([{ src: SCALAR_BUNDLE_URL, type: undefined, body: "" }]);
    expect(scripts.filter((script) => !script.src)).toEqual([{ src: undefined, type: "application/json", body: "" }]);
    const references = [...page.matchAll(/\b(?:src|href|action)="([^"]*)"/g)].map(([, url]) => url!);
    // Paths on this origin only ("data:," is the empty icon that spares a request for /favicon.ico).
    for (const url of references) expect(url).toMatch(/^(\/(?!\/)|data:,$)/);
    expect(page).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    expect(page).toContain("/api/v1/openapi.json");
  });

  it("sends a strict Content-Security-Policy that names no other origin, and is never cached", async () => {
    const response = await fetchPath("/api/v1/docs");
    const policy = directives(response.headers.get("content-security-policy") ?? "");
    expect(policy["default-src"]).toEqual(["'none'"]);
    expect(policy["script-src"]).toEqual(["'self'"]);
    expect(policy["connect-src"]).toEqual(["'self'"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    // Only keywords and data: (icons) anywhere: no host, no scheme that reaches one.
    for (const [name, sources] of Object.entries(policy)) {
      for (const source of sources) expect(source, name).toMatch(/^('self'|'none'|'unsafe-inline'|data:)$/);
    }
    expect(policy["style-src"]).toContain("'self'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("the reference UI's bundle, served by the Worker", () => {
  it("is the installed @scalar/api-reference, byte for byte, as JavaScript", async () => {
    // The constant the page uses names the version installed (the bundle logs its own version).
    expect(installedBundle).toContain(`"@scalar/api-reference@${SCALAR_VERSION}"`);
    expect(SCALAR_BUNDLE_URL).toContain(SCALAR_VERSION);

    const response = await fetchPath(SCALAR_BUNDLE_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript\b/);
    const served = await response.arrayBuffer();
    expect(served.byteLength).toBeGreaterThan(1_000_000);
    expect(await sha256(served)).toBe(await sha256(new TextEncoder().encode(installedBundle)));
  });

  it("is cacheable for a year at its versioned URL, with the API's security headers", async () => {
    const response = await fetchPath(SCALAR_BUNDLE_URL);
    await response.arrayBuffer();
    const cacheControl = response.headers.get("cache-control") ?? "";
    expect(cacheControl).toContain("public");
    expect(cacheControl).toContain("immutable");
    expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeGreaterThanOrEqual(31_536_000);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers another name under the assets path with the API's 404", async () => {
    await expectErrorIn(await fetchPath("/api/v1/docs/assets/api-reference-0.0.0.js"), 404, "not_found");
  });
});
