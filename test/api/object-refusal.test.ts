// The runtime's refusals from a network's object (workerd marks an overloaded queue `overloaded`, a broken-off
// call `retryable`) answer 503 unavailable with Retry-After in the one envelope, not 500 internal: the fleet
// waits and asks again (cli/retry-after.mjs) instead of reading the server as broken.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { handleError } from "../../src/middleware/error-handler";
import type { AppEnv } from "../../src/lib/types";

function answerTo(thrown: unknown) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.post("/beat", () => {
    throw thrown;
  });
  return app.request("/beat", { method: "POST" });
}

const flagged = (message: string, flags: Record<string, boolean>) => Object.assign(new Error(message), flags);

describe("a network object's refusal", () => {
  it("overloaded: 503 unavailable, Retry-After 1", async () => {
    const response = await answerTo(
      flagged("Durable Object is overloaded. Too many requests queued.", { overloaded: true, retryable: false }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("1");
    expect(await response.json()).toEqual({ error: { code: "unavailable", message: "The network is busy; try again shortly" } });
  });

  it("broken off (retryable): 503 unavailable, Retry-After 1", async () => {
    const response = await answerTo(flagged("Network connection lost.", { retryable: true }));
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("1");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unavailable");
  });

  it("anything else stays 500 internal, with no Retry-After and no internals", async () => {
    const response = await answerTo(new Error("no such table: nodes"));
    expect(response.status).toBe(500);
    expect(response.headers.get("Retry-After")).toBeNull();
    expect(await response.json()).toEqual({ error: { code: "internal", message: "Internal error" } });
  });
});
