// A tiny JSON client for the Worker served by `wrangler dev`. Paths are relative to /api/v1, as in
// test/helpers/api.ts, so a request reads the same in the workers suite and the e2e suite.

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

export function api(baseUrl: string, token?: string): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
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

/** Logs in and returns the access token; anything but 200 throws with the answer, for test output. */
export async function login(baseUrl: string, credentials: { email: string; password: string }): Promise<string> {
  const response = await api(baseUrl).post<{ accessToken?: string }>("/auth/login", credentials);
  if (response.status !== 200 || !response.body?.accessToken) {
    throw new Error(`login as ${credentials.email} answered ${response.status}: ${response.text}`);
  }
  return response.body.accessToken;
}
