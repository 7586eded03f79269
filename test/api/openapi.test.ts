import { describe, expect, it } from "vitest";
import { API_BASE, createApp } from "../../src/app";
import { get } from "../helpers/api";

const UNDOCUMENTED = new Set([`${API_BASE}/openapi.json`, `${API_BASE}/docs`, `${API_BASE}/docs/assets/:file`]);

/** Every method+path the app really routes (middleware and the doc endpoints aside), in OpenAPI form. */
function registeredRoutes() {
  return createApp()
    .routes.filter((route) => route.method !== "ALL" && !UNDOCUMENTED.has(route.path))
    .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
}

describe("the OpenAPI document", () => {
  it("is served as OpenAPI 3.1 and lists every registered route, and nothing else", async () => {
    const response = await get("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(20);
    expect(new Set(documented)).toEqual(new Set(routes));
  });

  it("marks protected routes with bearer security and documents the error envelope", async () => {
    const doc = (await get("/openapi.json")).body;
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths[`${API_BASE}/networks`].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths[`${API_BASE}/auth/login`].post.security).toBeUndefined();
    expect(doc.paths[`${API_BASE}/networks`].post.responses["422"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Error",
    );
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Network", "CreateNetwork", "TokenPair", "Group", "User"]));
  });

  it("serves a browsable reference at /docs", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.text).toContain(`${API_BASE}/openapi.json`);
  });
});
