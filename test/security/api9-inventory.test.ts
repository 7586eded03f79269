import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { API_BASE } from "../../src/app";
import { fetchDocument, operations, type OpenApiDoc, type Operation } from "../fuzz/openapi-model";
import { appWith } from "./outbound";
import { expectErrorIn } from "../helpers/expect-error";

/**
 * OWASP API9:2023 Improper Inventory Management. test/api/openapi.test.ts proves the document lists
 * exactly the routes the app registers; here: nothing answers outside it, every operation is described
 * and tagged, and the unauthenticated surface is an explicit, reviewed list (a new public route fails
 * this test until it is added here on purpose).
 */
const PUBLIC = new Set([
  "GET /health",
  "GET /health/ready",
  // The server's version and the wgo package it serves, for `wgo version` and install.sh (routes/wgo/): no secret.
  "GET /version",
  "POST /auth/login",
  "POST /auth/refresh",
  "POST /auth/mfa/verify",
  "POST /auth/password-reset/request",
  "POST /auth/password-reset/confirm",
  "GET /auth/oauth/{provider}/start",
  "GET /auth/oauth/{provider}/callback",
  "POST /agents/enrol",
  "GET /dev/mail", // 404 unless MAIL_TRANSPORT=dev (below)
]);
/** Bearer optional: a user token, or proof in the body (an enrolment key, the invite token). */
const OPTIONAL_BEARER = new Set(["POST /client/devices", "POST /auth/invites/accept"]);

let doc: OpenApiDoc;
let ops: Operation[];
beforeAll(async () => {
  doc = await fetchDocument();
  ops = operations(doc);
});

const key = (op: Operation) => `${op.method} ${op.path}`;

describe("API9 the documented surface is the whole surface", () => {
  it("every operation is under /api/v1, tagged and summarised", () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      expect(path.startsWith(`${API_BASE}/`), path).toBe(true);
      for (const [method, op] of Object.entries(methods) as [
        string,
        { tags?: string[]; summary?: string; responses: Record<string, unknown> },
      ][]) {
        expect(op.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
        expect(op.summary, `${method} ${path} summary`).toBeTruthy();
      }
    }
  });

  it("the unauthenticated operations are exactly the reviewed public list", () => {
    const open = ops
      .filter((op) => !op.secured)
      .map(key)
      .sort();
    expect(open).toEqual([...PUBLIC].sort());
    const optional = ops
      .filter((op) => op.secured && OPTIONAL_BEARER.has(key(op)))
      .map(key)
      .sort();
    expect(optional).toEqual([...OPTIONAL_BEARER].sort());
  });

  it("every protected operation documents 401", () => {
    for (const op of ops.filter((o) => o.secured)) expect(op.statuses, key(op)).toContain("401");
  });

  it.each([
    "/api",
    "/api/v1",
    "/api/v2/users/me",
    "/api/v0/users/me",
    "/api/v1/debug",
    "/api/v1/admin",
    "/api/v1/_internal",
    "/api/v1/.env",
    "/api/v1/graphql",
    "/api/v1/swagger.json",
    "/api/v1/openapi.yaml",
    "/api/v1/admin/users",
    "/api/v1/internal/writer",
  ])("nothing undocumented answers: GET %s is 404 in the envelope", async (path) => {
    const response = await exports.default.fetch(`http://api.test${path}`);
    expect(response.status, path).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("outside /api the web console answers: / sends a visitor to sign in, an unknown path is a plain 404", async () => {
    const root = await exports.default.fetch("http://api.test/", { redirect: "manual" });
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toBe("/sign-in");
    // A dot-segment walk out of /api (URL parsing resolves it to /etc/passwd) lands here too, never on a file.
    for (const path of ["/.well-known/security.txt", "/debug", "/.env", "/api/v1/users/me/../../../../etc/passwd"]) {
      const response = await exports.default.fetch(`http://api.test${path}`, { redirect: "manual" });
      expect([303, 404], path).toContain(response.status);
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'none'");
      expect(await response.text(), path).not.toMatch(/stack|at \w+ \(/i);
    }
  });

  it("the development mailbox does not exist outside MAIL_TRANSPORT=dev", async () => {
    for (const transport of ["none", "http"]) {
      const response = await appWith({ MAIL_TRANSPORT: transport })("/dev/mail?to=a@example.com");
      await expectErrorIn(response, 404, "not_found");
    }
  });

  it("the document is public by design and carries no configured secret", async () => {
    const text = JSON.stringify(doc);
    const keys = JSON.parse(env.JWT_SIGNING_KEYS!) as { d: string }[];
    for (const secret of [env.TOKEN_SECRET!, env.BOOTSTRAP_ADMIN_PASSWORD!, ...keys.map((k) => k.d)]) {
      expect(text.includes(secret)).toBe(false);
    }
  });
});
