import { readFileSync } from "node:fs";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { describe, expect, it } from "vitest";

const root = new URL("../../client/", import.meta.url);

/**
 * client/schema.d.ts is generated from client/openapi.json (itself kept true by
 * test/api/openapi-document.test.ts): a fresh generation must equal the committed file, or the typed
 * client would check requests against routes that changed. `npm run client:generate` rewrites both.
 */
describe("the typed client's types", () => {
  it("are exactly what openapi-typescript generates from the committed document", async () => {
    const document = JSON.parse(readFileSync(new URL("openapi.json", root), "utf8"));
    // The same output as the CLI in `npm run client:generate` (it prefixes COMMENT_HEADER). A default
    // makes a field optional in a request body, so defaults must not make properties required.
    const fresh = `${COMMENT_HEADER}${astToString(await openapiTS(document, { defaultNonNullable: false }))}`;
    expect(fresh === readFileSync(new URL("schema.d.ts", root), "utf8"), "client/schema.d.ts is stale: run npm run client:generate").toBe(
      true,
    );
  });
});
