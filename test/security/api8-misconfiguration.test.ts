import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { API_BASE, createApp } from "../../src/app";
import { call, get, post } from "../helpers/api";
import { createGateway, createGroup, signInAdmin, unique, type Session } from "../helpers/factories";
import { fetchDocument, operations, type Operation } from "../fuzz/openapi-model";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API8:2023 Security Misconfiguration. CORS policy: none at all. The CLI sends bearer tokens
 * directly and the web front end calls the API from its own server (spec part 5.7), so no browser
 * origin needs cross-origin reads; without Access-Control-Allow-Origin a browser page on another
 * origin cannot read any answer. Plus: security headers everywhere, 405 with Allow, 415 for non-JSON.
 * The 500-without-internals case is in test/api/envelope.test.ts.
 */
let admin: Session;
let ops: Operation[];
const agents: Record<string, string> = {};
let scimToken: string;
beforeAll(async () => {
  admin = await signInAdmin();
  scimToken = (await post("/admin/scim-tokens", { name: unique("api8") }, admin.token)).body.token;
  ops = operations(await fetchDocument());
  const gateway = await createGateway(admin);
  for (const [kind, scope] of [
    ["gateway-manager", { regionId: gateway.regionId }],
    ["gateway-daemon", { gatewayId: gateway.id }],
  ] as const) {
    const issued = await post("/agents/enrolment-tokens", { kind, ...scope }, admin.token);
    agents[kind] = (await post("/agents/enrol", { token: issued.body.token, name: kind })).body.credential;
  }
});

/** The SCIM routes refuse in SCIM's error body (lib/scim-wire.ts), with the same status and sentence. */
const isScim = (path: string) => path.startsWith("/scim/v2");
function expectRefusal(response: Awaited<ReturnType<typeof call>>, path: string, status: number, code: string) {
  if (!isScim(path)) return expectError(response, status, code);
  expect(response.status, response.text).toBe(status);
  expect(response.body, response.text).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: String(status) });
}

const CORS_HEADERS = [
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-allow-methods",
  "access-control-allow-headers",
];

describe("API8 CORS: no cross-origin access is granted", () => {
  it.each(["https://evil.example", "null", "http://localhost:3000"])(
    "a preflight and a credentialed read from %s get no Access-Control-* header",
    async (origin) => {
      const preflight = await call("OPTIONS", "/users/me", {
        headers: { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
      });
      const read = await call("GET", "/users/me", { token: admin.token, headers: { Origin: origin } });
      expect(read.status).toBe(200);
      for (const response of [preflight, read]) {
        for (const name of CORS_HEADERS) expect(response.headers.get(name), name).toBeNull();
      }
    },
  );
});

describe("API8 security headers on every kind of answer", () => {
  it("JSON, text artifacts, errors, 413 and paths outside the base path all carry them", async () => {
    const group = await createGroup(admin);
    const network = await post("/networks", { groupId: group.id, name: "hdr", cidr: "10.211.0.0/24" }, admin.token);
    const answers = {
      json: await get("/users/me", admin.token),
      token: await post("/auth/refresh", { refreshToken: admin.refreshToken }),
      text: await get(`/networks/${network.body.id}/dns/zonefile`, admin.token),
      unauthorized: await get("/users/me"),
      tooLarge: await call("POST", "/groups", {
        token: admin.token,
        raw: "x".repeat(70_000),
        headers: { "Content-Type": "application/json" },
      }),
      outside: await exports.default.fetch("http://api.test/api/unknown"),
    };
    for (const [kind, response] of Object.entries(answers)) {
      const h = response.headers;
      expect(h.get("x-content-type-options"), kind).toBe("nosniff");
      expect(h.get("x-frame-options"), kind).toBe("DENY");
      expect(h.get("referrer-policy"), kind).toBe("no-referrer");
      expect(h.get("content-security-policy"), kind).toContain("default-src 'none'");
      expect(h.get("x-request-id"), kind).toBeTruthy();
      expect(h.get("cache-control"), kind).toBe(kind === "text" ? "no-cache" : "no-store");
      expect(h.get("x-powered-by"), kind).toBeNull();
    }
  });

  it("HSTS only over https", async () => {
    const https = await createApp().request("https://api.example/api/v1/health", {}, env);
    expect(https.headers.get("strict-transport-security")).toMatch(/max-age=\d{7,}/);
    expect((await get("/health")).headers.get("strict-transport-security")).toBeNull();
  });
});

describe("API8 methods and media types", () => {
  it("every documented path answers an undocumented method with 405 and an Allow header listing exactly the documented ones", async () => {
    const templates = [...new Set(ops.map((op) => op.path))];
    // A concrete path may match several templates (/users/me and /users/{id}): Allow is their union.
    const matches = (template: string, path: string) => new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path);
    for (const template of templates) {
      const path = template.replace(/\{\w+\}/g, "x_1");
      const methods = new Set(ops.filter((op) => matches(op.path, path)).map((op) => op.method));
      const other = ["PUT", "PATCH", "DELETE", "POST"].find((m) => !methods.has(m))!;
      const response = await call(other, path, { token: isScim(path) ? scimToken : admin.token });
      expectRefusal(response, path, 405, "method_not_allowed");
      expect(response.headers.get("allow")!.split(", ").sort(), path).toEqual([...methods].sort());
    }
  });

  it("every route with a JSON body answers 415 to a body of another media type", async () => {
    const withBody = ops.filter((op) => op.body);
    expect(withBody.length).toBeGreaterThan(40);
    for (const op of withBody) {
      // Agent routes check the agent's kind before the body: each gets the kind it is for.
      const token = /^\/agents\/me\/(report|desired-state|nodes)/.test(op.path)
        ? agents["gateway-daemon"]
        : op.path.startsWith("/agents/me")
          ? agents["gateway-manager"]
          : isScim(op.path)
            ? scimToken
            : admin.token;
      for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
        const response = await call(op.method, op.path.replace(/\{\w+\}/g, "x_1"), {
          token,
          raw: "name=x",
          headers: { "Content-Type": type },
        });
        expect(response.status, `${op.method} ${op.path} as ${type}`).toBe(415);
        expectRefusal(response, op.path, 415, "unsupported_media_type");
      }
    }
  });

  it("method-override headers are ignored: a POST never becomes a DELETE", async () => {
    const group = await createGroup(admin);
    const response = await call("POST", `/groups/${group.id}`, {
      token: admin.token,
      headers: { "X-HTTP-Method-Override": "DELETE", "X-HTTP-Method": "DELETE" },
    });
    expectError(response, 405, "method_not_allowed");
    expect((await get(`/groups/${group.id}`, admin.token)).status).toBe(200);
    expect(`${API_BASE}/groups`).toBe("/api/v1/groups");
  });
});
