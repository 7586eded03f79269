import { exports } from "cloudflare:workers";
import { createApiClient } from "../../client/index.ts";

export { byId } from "../../client/index.ts";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: BodyInit;
  headers?: Record<string, string>;
}

/** One request through the real Worker entry point (`exports.default.fetch`). */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const response = await exports.default.fetch(new Request(`http://api.test/api/v1${path}`, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // keep text bodies (wg-quick, Corefile) as strings
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

export const get = <T = any>(path: string, token?: string) => call<T>("GET", path, { token });
export const post = <T = any>(path: string, body: unknown, token?: string) => call<T>("POST", path, { body, token });
export const patch = <T = any>(path: string, body: unknown, token?: string) => call<T>("PATCH", path, { body, token });
export const put = <T = any>(path: string, body: unknown, token?: string) => call<T>("PUT", path, { body, token });
export const del = <T = any>(path: string, token?: string) => call<T>("DELETE", path, { token });

/**
 * The typed client (client/index.ts) wired to the Worker in-process: paths, bodies and answers are
 * checked against the route schemas. `api(token).GET("/api/v1/nodes/{id}", { params: { path: { id } } })`
 * answers `{ data, error, response }`. Keep `call`/`get`/… above for hostile input (raw bodies, bad JSON).
 */
export const api = (token?: string) =>
  createApiClient({ baseUrl: "http://api.test", fetch: (request) => exports.default.fetch(request), token });
