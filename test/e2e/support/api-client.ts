// The typed client (client/index.ts) against the Worker served by `wrangler dev`: the same client the
// workers suites use in-process, so a request reads the same in both.
import { createApiClient, type ApiClient as TypedApiClient } from "../../../client/index.ts";

export { byId } from "../../../client/index.ts";
export type { TypedApiClient };

/** The typed client for the server at `baseUrl` (global fetch), signed in with `token` when given. */
export const typedApi = (baseUrl: string, token?: string): TypedApiClient => createApiClient({ baseUrl, token });

/** The body of an answer that must have `status`; anything else fails with the answer in the message. */
export function expectAnswer<T>(result: { data?: T; error?: unknown; response: Response }, status: number, what: string): T {
  if (result.response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${result.response.status}: ${JSON.stringify(result.error ?? result.data)}`);
  }
  return result.data as T;
}

/** Logs in and returns the access token; anything but 200 throws with the answer, for test output. */
export async function login(baseUrl: string, credentials: { email: string; password: string }): Promise<string> {
  const signedIn = expectAnswer(
    await typedApi(baseUrl).POST("/api/v1/auth/login", { body: credentials }),
    200,
    `login as ${credentials.email}`,
  );
  if (!("accessToken" in signedIn)) throw new Error(`login as ${credentials.email} asked for MFA`);
  return signedIn.accessToken;
}

// --- Untyped requests (kept for bench/seed.ts): paths relative to /api/v1, bodies as given. ---

export interface ApiResponse<T = any> {
  status: number;
  /** Parsed JSON, or the raw text for text/plain answers (wg-quick, Corefile, zone file). */
  body: T;
  text: string;
  headers: Headers;
}

export interface ApiClient {
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
}

/** Untyped requests through the shared client (its base URL and bearer token); prefer `typedApi`. */
export function api(baseUrl: string, token?: string): ApiClient {
  // openapi-fetch's generic `request` with the path and method unchecked: the caller builds the path.
  const client = typedApi(baseUrl, token) as unknown as {
    request(
      method: string,
      url: string,
      init: { body?: unknown; parseAs: "text" },
    ): Promise<{ data?: string; error?: unknown; response: Response }>;
  };
  async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const { data, error, response } = await client.request(method, `/api/v1${path}`, { body, parseAs: "text" });
    const text = data ?? (typeof error === "string" ? error : JSON.stringify(error ?? ""));
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
    put: (path, body) => call("PUT", path, body),
    patch: (path, body) => call("PATCH", path, body),
    delete: (path) => call("DELETE", path),
  };
}
