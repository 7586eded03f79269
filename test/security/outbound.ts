import { env } from "cloudflare:workers";
import { afterEach, vi } from "vitest";
import { createApp } from "../../src/app";

/**
 * Every outbound request the Worker makes goes through the global fetch of this isolate (tests and the
 * Worker share it), so a spy sees them all: which hosts were contacted, and what the upstream answers.
 */
export function spyOnOutbound(answer: (url: URL, init?: RequestInit) => Response | Promise<Response> = () => new Response("ok")) {
  const calls: { url: URL; init?: RequestInit }[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push({ url, init });
    return answer(url, init);
  });
  return { calls, restore: () => spy.mockRestore() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * The app under a different configuration (production webhook rules, an HTTP mail relay, an OIDC
 * provider). getConfig caches per env object, so a proxy over the test env is a fresh configuration.
 */
export function appWith(overrides: Record<string, string>) {
  const app = createApp();
  const overridden = (key: string | symbol): key is string => typeof key === "string" && key in overrides;
  // zod asks `key in env` for optional settings, so `has` must agree with `get`.
  const configured = new Proxy(env, {
    get: (target, key) => (overridden(key) ? overrides[key] : Reflect.get(target, key)),
    has: (target, key) => overridden(key) || Reflect.has(target, key),
  });
  return (path: string, init: RequestInit & { json?: unknown; token?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
    if (init.json !== undefined) headers.set("Content-Type", "application/json");
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    return app.request(`/api/v1${path}`, { ...init, headers, body }, configured);
  };
}
