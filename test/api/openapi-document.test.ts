import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * client/openapi.json is the route schemas' own document, committed so the typed client
 * (client/schema.d.ts, generated from it) follows every route change. Under CI a stale file fails
 * here; locally `npm run client:generate` rewrites it and regenerates the types.
 */
describe("the committed OpenAPI document", () => {
  it("is the document the Worker serves", async () => {
    const response = await exports.default.fetch(new Request("http://api.test/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    const doc = await response.json();
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot("../../client/openapi.json");
  });
});
