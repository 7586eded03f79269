import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call, get, post } from "../helpers/api";
import { createGroup, signInAdmin } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";
import { describeForLog } from "../../src/lib/log";

describe("the error envelope", () => {
  it("422 VALIDATION_ERROR with fields[] for schema failures, dotted paths", async () => {
    const admin = await signInAdmin();
    const response = await post("/networks", { groupId: 7, name: "", cidr: "10.0.0.1/24" }, admin.token);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("VALIDATION_ERROR");
    const paths = response.body.error.fields.map((field: { path: string }) => field.path).sort();
    expect(paths).toEqual(["cidr", "groupId", "name"]);
    expect(response.body.error.fields.find((f: { path: string }) => f.path === "cidr").message).toMatch(/host bits/i);
  });

  it("422 for unknown fields (no mass assignment)", async () => {
    const admin = await signInAdmin();
    const response = await post("/groups", { name: "ok", id: "grp_chosen", role: "owner" }, admin.token);
    expectError(response, 422, "VALIDATION_ERROR");
    expect(response.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(["id", "role"]);
  });

  it("422 for malformed JSON, never a 500", async () => {
    const admin = await signInAdmin();
    const response = await call("POST", "/groups", {
      token: admin.token,
      raw: '{"name": ',
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "VALIDATION_ERROR", fields: [{ path: "", message: "Malformed JSON" }] });
  });

  it("422 for a missing body; 415 for a body that is not JSON", async () => {
    const admin = await signInAdmin();
    expect((await call("POST", "/groups", { token: admin.token })).status).toBe(422);
    const form = await call("POST", "/groups", {
      token: admin.token,
      raw: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe("unsupported_media_type");
  });

  it("413 for bodies over 64 KiB, with or without Content-Length", async () => {
    const admin = await signInAdmin();
    const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
    const sized = await call("POST", "/groups", { token: admin.token, raw: big, headers: { "Content-Type": "application/json" } });
    expect(sized.status).toBe(413);
    expect(sized.body.error.code).toBe("payload_too_large");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await call("POST", "/groups", { token: admin.token, raw: stream, headers: { "Content-Type": "application/json" } });
    expectError(chunked, 413, "payload_too_large");
  });

  it("404 not_found for unknown routes and unknown ids; 405 with Allow for a known path", async () => {
    const admin = await signInAdmin();
    const unknown = await get("/nope", admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect((await get("/groups/grp_missing", admin.token)).body.error.code).toBe("not_found");
    const wrongMethod = await call("DELETE", "/auth/login");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe("method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("403 forbidden for a visible resource the caller may not change", async () => {
    const admin = await signInAdmin();
    const plain = await post("/users", { email: "plain@example.com", password: "long enough pw", name: "P" }, admin.token);
    expect(plain.status).toBe(201);
    const session = await post("/auth/login", { email: "plain@example.com", password: "long enough pw" });
    const response = await post("/users", { email: "x@example.com", password: "long enough pw" }, session.body.accessToken);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("forbidden");
  });

  it("409 conflict in the envelope", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    await post("/networks", { groupId: group.id, name: "a", cidr: "10.9.0.0/16" }, admin.token);
    const response = await post("/networks", { groupId: group.id, name: "b", cidr: "10.9.4.0/24" }, admin.token);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("conflict");
  });

  it("500 internal without stack or SQL text", async () => {
    const app = createApp();
    app.get("/boom", () => {
      throw new Error("SELECT password_hash FROM users");
    });
    const response = await app.request("/api/v1/boom", {}, env);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "Internal error" } });
    expect(text).not.toContain("SELECT");
  });

  it("every response carries X-Request-Id; a well-formed incoming one is echoed", async () => {
    const minted = await get("/users/me");
    expect(minted.headers.get("x-request-id")).toMatch(/^req_/);
    const echoed = await call("GET", "/users/me", { headers: { "X-Request-Id": "trace-1234abcd" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-1234abcd");
    const hostile = await call("GET", "/users/me", { headers: { "X-Request-Id": "<script>" } });
    expect(hostile.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("error logs", () => {
  it("logs of database failures never carry the bound parameters", () => {
    const error = Object.assign(
      new Error("Failed query: insert into users values (?, ?)\nparams: usr_1,$scrypt$ln=14,r=8,p=5$c2FsdA$aGFzaA"),
      {
        name: "DrizzleQueryError",
        cause: new Error("D1_ERROR: UNIQUE constraint failed"),
        query: "insert into users values (?, ?)",
      },
    );
    const logged = JSON.stringify(describeForLog(error));
    expect(logged).not.toContain("$scrypt$");
    expect(logged).toContain("UNIQUE constraint failed");
    expect(logged).toContain("insert into users");
  });
});
