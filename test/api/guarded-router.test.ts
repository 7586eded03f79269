import { createRoute, z } from "@hono/zod-openapi";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { guardedRouter } from "../../src/middleware/guarded-router";

/** Issue 25 item 2: one way to guard a route, the router's guard, which also writes the document's security. */
describe("guarded routers", () => {
  it("refuse a route that names its own security: the guard is the only source", () => {
    const route = createRoute({
      method: "get",
      path: "/guarded-probe",
      security: [],
      responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({}) } } } },
    });
    expect(() => guardedRouter("user").openapi(route, (c) => c.json({}, 200))).toThrow(/security comes from its router's guard/);
  });

  it("every operation in the document states its security (each route was registered on a guarded router)", async () => {
    const doc = (await (await exports.default.fetch(new Request("http://api.test/api/v1/openapi.json"))).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, security: operation.security })),
    );
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((operation) => !Array.isArray(operation.security)).map((operation) => operation.at)).toEqual([]);
  });
});
