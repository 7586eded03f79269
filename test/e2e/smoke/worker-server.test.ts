// The harness itself: `wrangler dev` comes up on a fresh state directory with generated secrets,
// serves the OpenAPI document, and the bootstrap admin can sign in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../../helpers/expect-error.ts";
import { login, typedApi } from "../support/api-client.ts";
import { heldEvents } from "../support/devtools.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

describe("worker server harness", () => {
  let server: WorkerServer;

  beforeAll(async () => {
    server = await startWorker();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the OpenAPI document", async () => {
    // The document itself is not one of its own paths: fetched directly.
    const response = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("lets the bootstrap admin log in, and not with a wrong password", async () => {
    const wrong = await typedApi(server.baseUrl).POST("/api/v1/auth/login", { body: { ...server.admin, password: "not-the-password" } });
    expectError(wrong, 401, "unauthorized");

    const token = await login(server.baseUrl, server.admin);
    expect(token.split(".")).toHaveLength(3); // a JWT
    // The same credentials work twice: the first login created the admin, the second finds it.
    expect(await login(server.baseUrl, server.admin)).toBeTruthy();
  });

  it("leaves no network events held in wrangler's inspector proxy after requests that query D1", async () => {
    // Each login reads and writes D1: without muteNetworkEvents, four Network.* events per query wait in
    // the proxy's memory for a DevTools window (docs/memory.md).
    for (let i = 0; i < 3; i++) await login(server.baseUrl, server.admin);
    const held = await heldEvents(server.inspectorPort);
    expect(held.filter((method) => method.startsWith("Network."))).toEqual([]);
  });

  it("stops cleanly and can be stopped twice", async () => {
    const { baseUrl } = server;
    await server.stop();
    await server.stop();
    await expect(fetch(`${baseUrl}/api/v1/openapi.json`)).rejects.toThrow();
  });
});
