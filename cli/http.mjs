// JSON over HTTP to /api/v1 with Node's global fetch. Every failure becomes an ApiError (the server's
// envelope, status and Retry-After) or a NetworkError (the socket-level reason, e.g. ECONNREFUSED).
import { ApiError, NetworkError, UsageError } from "./errors.mjs";

const TIMEOUT_MS = 30_000;

/** Accepts `http://host:8787`, with or without a trailing slash or `/api/v1`; returns the origin part. */
export function normalizeApi(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--api "${value}" is not a URL (e.g. http://127.0.0.1:8787)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--api "${value}" must be http or https`);
  return url.href.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
}

/**
 * @param {{ api: string, method?: string, path: string, token?: string, body?: unknown }} request
 * @returns {Promise<any>} the parsed JSON body (null for 204)
 */
export async function apiRequest(request) {
  return (await apiExchange(request)).body;
}

/**
 * apiRequest, plus the size of the answer's body in bytes (as received, after any content decoding):
 * what delta sync is meant to keep small, and the status and ETag (a 304 is an answer, body null).
 * `timeoutMs` is longer for a long poll; `signal` lets a stopping daemon abandon one.
 * @param {{ api: string, method?: string, path: string, token?: string, body?: unknown,
 *   headers?: Record<string, string>, timeoutMs?: number, signal?: AbortSignal }} request
 * @returns {Promise<{ body: any, bytes: number, status: number, etag: string | null }>}
 */
export async function apiExchange({ api, method = "POST", path, token, body, headers: extra = {}, timeoutMs = TIMEOUT_MS, signal }) {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json", ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  // Removed in `finally`: a daemon passes one signal to every poll, and a listener left per request
  // would pile up for as long as it runs (Node warns after ten).
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort, { once: true });
  let response;
  let text;
  try {
    response = await fetch(`${api}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    text = await response.text();
  } catch (error) {
    const reason = signal?.aborted
      ? "stopped"
      : controller.signal.aborted
        ? `no answer within ${timeoutMs / 1000} s`
        : networkReason(error);
    throw new NetworkError(api, reason);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
  const etag = response.headers.get("etag");
  if (response.status === 304) return { body: null, bytes: 0, status: 304, etag };
  const parsed = parseJson(text);
  if (!response.ok) {
    const envelope = parsed && typeof parsed === "object" && parsed.error && typeof parsed.error === "object" ? parsed.error : null;
    throw new ApiError(response.status, envelope, { retryAfter: response.headers.get("retry-after"), text, path, api });
  }
  if (response.status !== 204 && parsed === undefined) {
    throw new ApiError(response.status, { code: "bad_response", message: `expected JSON from ${method} ${path}` });
  }
  return { body: parsed ?? null, bytes: Buffer.byteLength(text), status: response.status, etag };
}

function parseJson(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** undici wraps the socket error: `TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })`. */
function networkReason(error) {
  const cause = error && typeof error === "object" && "cause" in error ? error.cause : undefined;
  if (cause && typeof cause === "object") {
    // Socket errors have telling codes (ECONNREFUSED); undici's own (UND_ERR_SOCKET) say more in words.
    if ("code" in cause && cause.code && !String(cause.code).startsWith("UND_ERR")) return String(cause.code);
    const first = "errors" in cause && Array.isArray(cause.errors) ? cause.errors[0] : undefined;
    if (first?.code) return String(first.code);
    if ("message" in cause && cause.message) return String(cause.message);
  }
  return error instanceof Error ? error.message : String(error);
}
