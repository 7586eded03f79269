import { z } from "@hono/zod-openapi";

export { errorResponseFor, errorResponses, FieldErrorSchema } from "./openapi-errors";

/**
 * Who may call a route, as the document states it (components/securitySchemes, registered in
 * openapi-document.ts). Routes never name one: the router they are registered on does, with the
 * middleware that enforces it (middleware/guarded-router.ts).
 */
type Security = Record<string, string[]>[];
export const SECURITY = {
  /** A user's access token (JWT from /auth/login). */
  user: [{ userAuth: [] }] as Security,
  /** An agent's own credential (agc_...). */
  agent: [{ agentAuth: [] }] as Security,
  /** A device's own credential (dvc_...), or a user's access token (the device's owner or a group admin). */
  deviceOrUser: [{ deviceAuth: [] }, { userAuth: [] }] as Security,
  /** A user's access token when one is sent; without one the body proves the right (enrolment key, password). */
  optionalUser: [{ userAuth: [] }, {}] as Security,
  /** GET /metrics: a platform admin's access token, or the metrics token (mtk_...). */
  metricsReader: [{ userAuth: [] }, { metricsAuth: [] }] as Security,
  /** An identity provider's SCIM client: a SCIM token (scim_...), good on /scim/v2 only. */
  scim: [{ scimAuth: [] }] as Security,
  /** No credentials at all. */
  none: [] as Security,
};

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
