import { describe, expect, it } from "vitest";
import { API_BASE, createApp } from "../../src/app";
import { get } from "../helpers/api";

// Not JSON, so not in the document: the docs page and its files, wgo's install script and package (routes/wgo/).
const UNDOCUMENTED = new Set([
  `${API_BASE}/openapi.json`,
  `${API_BASE}/docs`,
  `${API_BASE}/docs/assets/:file`,
  `${API_BASE}/install.sh`,
  `${API_BASE}/wgo/:file`,
]);

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

  it("marks each route with the credentials it accepts and documents the error envelope per status", async () => {
    const doc = (await get("/openapi.json")).body;
    for (const scheme of ["userAuth", "deviceAuth", "agentAuth"]) {
      expect(doc.components.securitySchemes[scheme]).toMatchObject({ type: "http", scheme: "bearer" });
    }
    expect(doc.paths[`${API_BASE}/networks`].post.security).toEqual([{ userAuth: [] }]);
    expect(doc.paths[`${API_BASE}/auth/login`].post.security).toEqual([]);
    expect(doc.paths[`${API_BASE}/client/devices/{id}/heartbeat`].post.security).toEqual([{ deviceAuth: [] }, { userAuth: [] }]);
    expect(doc.paths[`${API_BASE}/agents/me`].get.security).toEqual([{ agentAuth: [] }]);
    expect(doc.paths[`${API_BASE}/networks`].post.responses["422"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Error422",
    );
    expect(doc.components.schemas.Error422.properties.error.properties.code.enum).toEqual(["VALIDATION_ERROR"]);
    expect(doc.components.schemas.Error400.properties.error.properties.code.enum).toEqual(["validation_error"]);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Network", "CreateNetwork", "TokenPair", "Group", "User"]));
  });

  it("serves a browsable reference at /docs", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.text).toContain(`${API_BASE}/openapi.json`);
  });
});
