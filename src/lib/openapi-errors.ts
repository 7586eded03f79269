import { z } from "@hono/zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { HEADER_REFS } from "./openapi-headers";

/**
 * The error envelope, one schema per status (Error400, Error404, ...), each naming the codes that status
 * really travels with (ERROR_STATUS, the one status→code map), so a generated client can switch on `code`.
 * On the wire it is the same envelope for every status: `{ error: { code, message, fields? } }`.
 */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() }).openapi("FieldError");

const ERROR_DESCRIPTIONS = {
  400: "A domain rule is violated (code validation_error); the message names it",
  401: "Missing, invalid or ended credentials (code unauthorized); WWW-Authenticate: Bearer",
  403: "The resource is visible to the caller, but this action is not allowed (code forbidden)",
  404: "Not found, or not visible to the caller (code not_found)",
  409: "Conflicts with the current state (code conflict); the message says with what",
  412: "If-Match names a revision that is no longer current (code precondition_failed): read it again",
  413: "The body is over 64 KiB (code payload_too_large)",
  415: "The body is not application/json (code unsupported_media_type)",
  422: "Schema validation failed (code VALIDATION_ERROR); fields[] names each offending field",
  429: "Too many attempts (code rate_limited); Retry-After says when to try again",
  502: "An upstream service (mail relay, OAuth provider) failed (code bad_gateway)",
  503: "The network's object is overloaded or restarting (code unavailable); Retry-After says when to try again, and a fleet should add jitter",
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const codesOf = (status: ErrorStatus) =>
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).filter(([, s]) => s === status).map(([code]) => code);

function errorSchema(status: ErrorStatus) {
  const [first, ...rest] = codesOf(status);
  if (!first) throw new Error(`No error code travels with status ${status}`);
  const error = z.object({
    code: z.enum([first, ...rest]),
    message: z.string().openapi({ description: "A sentence for people; do not parse it" }),
    // Schema validation (422) names fields; a domain refusal (400) may (e.g. each failing test of an access
    // policy); the other statuses never carry them.
    ...(status === 422 || status === 400 ? { fields: z.array(FieldErrorSchema).optional() } : {}),
  });
  return z.object({ error }).openapi(`Error${status}`, { description: ERROR_DESCRIPTIONS[status] });
}

const ERROR_SCHEMAS = Object.fromEntries(
  (Object.keys(ERROR_DESCRIPTIONS).map(Number) as ErrorStatus[]).map((status) => [status, errorSchema(status)]),
) as Record<ErrorStatus, ReturnType<typeof errorSchema>>;

/** Headers some error statuses carry: 401 the Bearer challenge, 429 and 503 when to retry. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, Record<string, { $ref: string }>>> = {
  401: { "WWW-Authenticate": HEADER_REFS.wwwAuthenticate },
  429: { "Retry-After": HEADER_REFS.retryAfter },
  503: { "Retry-After": HEADER_REFS.retryAfter },
};

const errorResponse = (status: ErrorStatus, description: string = ERROR_DESCRIPTIONS[status]) => ({
  description,
  ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
  content: { "application/json": { schema: ERROR_SCHEMAS[status] } },
});

type ErrorResponses<S extends ErrorStatus> = {
  [K in S]: { description: string; content: { "application/json": { schema: (typeof ERROR_SCHEMAS)[K] } } };
};

/** Error responses to spread into a route's `responses`. */
export const errorResponses = <S extends ErrorStatus>(...statuses: S[]) =>
  Object.fromEntries(statuses.map((status) => [status, errorResponse(status)])) as unknown as ErrorResponses<S>;

/** One error status with a description of what causes it on this route. */
export const errorResponseFor = <S extends ErrorStatus>(status: S, description: string) =>
  ({ [status]: errorResponse(status, description) }) as unknown as ErrorResponses<S>;
