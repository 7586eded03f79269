import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, type ErrorCode } from "../lib/errors";
import { describeForLog } from "../lib/log";
import { isScimPath, SCIM_MEDIA_TYPE, scimErrorBody } from "../lib/scim-wire";
import type { AppEnv } from "../lib/types";

const CODE_FOR_STATUS: Partial<Record<number, ErrorCode>> = {
  400: "validation_error",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  502: "bad_gateway",
  503: "unavailable",
};

/** Seconds a caller waits after the network's object refused for overload (the fleet adds its own jitter). */
const OVERLOAD_RETRY_SECONDS = 1;

/**
 * The runtime's refusal from a Durable Object: `overloaded` when its queue is full, `retryable` when it broke off
 * (a restart, a reset). Both pass; the caller tries again later instead of reading it as our fault.
 */
function fromObjectRefusal(error: unknown): ApiError | null {
  const flags = error as { overloaded?: unknown; retryable?: unknown } | null;
  if (flags?.overloaded !== true && flags?.retryable !== true) return null;
  const message = flags.overloaded === true ? "The network is busy; try again shortly" : "The network restarted; try again shortly";
  return new ApiError("unavailable", message, { headers: { "Retry-After": String(OVERLOAD_RETRY_SECONDS) } });
}

/** Hono's own exceptions (malformed JSON, 415 gate, body limit) mapped into the one envelope. */
function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 400 && /malformed json/i.test(error.message)) {
    return new ApiError("VALIDATION_ERROR", "The request body is not valid JSON", {
      fields: [{ path: "", message: "Malformed JSON" }],
    });
  }
  const code = CODE_FOR_STATUS[error.status] ?? "internal";
  return new ApiError(code, code === "internal" ? "Internal error" : error.message || code);
}

/** The SCIM routes' errors in SCIM's own body (lib/scim-wire.ts), so an identity provider can read them. */
function scimErrorResponse(c: Context<AppEnv>, error: ApiError) {
  const { status, body } = scimErrorBody(error);
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, { "Content-Type": SCIM_MEDIA_TYPE });
}

export const respondWithError = (c: Context<AppEnv>, error: ApiError) => {
  const response = isScimPath(c.req.path) ? scimErrorResponse(c, error) : c.json(error.toBody(), error.status);
  for (const [name, value] of Object.entries(error.headers ?? {})) response.headers.set(name, value);
  if (error.code === "unauthorized") response.headers.set("WWW-Authenticate", 'Bearer realm="api"');
  return response;
};

export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof ApiError) return respondWithError(c, error);
  if (error instanceof HTTPException) return respondWithError(c, fromHttpException(error));
  const refusal = fromObjectRefusal(error);
  if (refusal) {
    // Not a fault of ours, but an operator wants to see a busy network: one line, no stack.
    console.warn(JSON.stringify({ requestId: c.var.requestId, unavailable: (error as Error).message }));
    return respondWithError(c, refusal);
  }
  // Unknown failures: log for operators, answer without internals (no stack, no SQL).
  console.error(JSON.stringify({ requestId: c.var.requestId, ...describeForLog(error) }));
  return respondWithError(c, new ApiError("internal", "Internal error"));
};
