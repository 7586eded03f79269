import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every error code the API answers with, and the status it travels with. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 422,
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldError[] };
}

/** RFC 7644 §3.12's detail error keywords that the SCIM routes answer with (lib/scim-wire.ts). */
export type ScimType =
  | "invalidFilter"
  | "invalidSyntax"
  | "invalidValue"
  | "invalidPath"
  | "noTarget"
  | "uniqueness"
  | "mutability"
  | "tooMany";

export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  readonly fields?: FieldError[];
  readonly headers?: Record<string, string>;
  /** The SCIM routes' `scimType` keyword for this error (lib/scim-wire.ts); other routes ignore it. */
  readonly scimType?: ScimType;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldError[]; headers?: Record<string, string>; cause?: unknown; scimType?: ScimType } = {},
  ) {
    super(ERROR_STATUS[code], { message, cause: options.cause });
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
    this.scimType = options.scimType;
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.fields) error.fields = this.fields;
    return { error };
  }
}

export const notFound = (what: string) => new ApiError("not_found", `${what} not found`);
export const forbidden = (message = "You may not perform this action") => new ApiError("forbidden", message);
export const conflict = (message: string) => new ApiError("conflict", message);
/** An `If-Match` naming a revision that is no longer current: the caller re-reads and decides again. */
export const preconditionFailed = (message: string) => new ApiError("precondition_failed", message);
export const unauthorized = (message = "Valid credentials are required") => new ApiError("unauthorized", message);
export const domainError = (message: string) => new ApiError("validation_error", message);

/** A single-field schema failure raised from handler code (e.g. a CIDR that parsed but is not canonical). */
export const fieldError = (path: string, message: string) =>
  new ApiError("VALIDATION_ERROR", "The request is not valid", { fields: [{ path, message }] });

/**
 * Errors cross the Durable Object RPC boundary as plain data: custom Error properties do not survive it.
 */
export type SerializedError = { code: ErrorCode; message: string; fields?: FieldError[] };

export const serializeError = (error: ApiError): SerializedError => ({
  code: error.code,
  message: error.message,
  fields: error.fields,
});

export const reviveError = (error: SerializedError) => new ApiError(error.code, error.message, { fields: error.fields });

/** A SCIM request the grammar refuses (a filter, a PATCH path or value): 400 with SCIM's keyword. */
export const scimRefusal = (scimType: ScimType, message: string) => new ApiError("validation_error", message, { scimType });

/** A SCIM resource whose unique attribute (userName, email, a group's displayName) is taken: 409 uniqueness. */
export const uniquenessConflict = (message: string) => new ApiError("conflict", message, { scimType: "uniqueness" });
