import { z } from "@hono/zod-openapi";

export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() }).openapi("FieldError");

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "not_found" }),
      message: z.string(),
      fields: z.array(FieldErrorSchema).optional(),
    }),
  })
  .openapi("Error");

const ERROR_DESCRIPTIONS = {
  400: "Domain rule violated (code validation_error)",
  401: "Missing or invalid credentials (code unauthorized)",
  403: "Visible but not allowed (code forbidden)",
  404: "Not found or not visible to the caller (code not_found)",
  409: "Conflicts with the current state (code conflict)",
  413: "Body over 64 KiB (code payload_too_large)",
  415: "Body is not application/json (code unsupported_media_type)",
  422: "Schema validation failed (code VALIDATION_ERROR, fields[])",
  429: "Too many attempts (code rate_limited, Retry-After)",
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** Error responses to spread into a route's `responses`. */
export const errorResponses = <S extends ErrorStatus>(...statuses: S[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: ERROR_DESCRIPTIONS[status], content: { "application/json": { schema: ErrorSchema } } },
    ]),
  ) as unknown as { [K in S]: { description: string; content: { "application/json": { schema: typeof ErrorSchema } } } };

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/** A body the client may leave out entirely (no Content-Type, no bytes): the handler then sees `{}`. */
export const optionalJsonBody = <T extends z.ZodType>(schema: T) => ({
  required: false,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const noContent = { description: "Done; no body" } as const;

export const IdParam = (name: string, prefix: string) =>
  z.object({
    id: z
      .string()
      .min(1)
      .max(64)
      .openapi({ param: { name: "id", in: "path" }, example: `${prefix}_...`, description: `${name} id` }),
  });

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T10:00:00.000Z" });
