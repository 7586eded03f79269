// The SCIM routes' refusals as the document states them: SCIM's error body (RFC 7644 §3.12) in its media type,
// not the API's envelope (middleware/error-handler.ts renders it; lib/scim-wire.ts says why). A body that fails
// its schema is SCIM's 400 invalidValue, so these routes list no 422.
import { z } from "@hono/zod-openapi";
import { HEADER_REFS } from "../../lib/openapi-headers";
import { SCIM_MEDIA_TYPE } from "../../lib/scim-wire";

export const ScimErrorSchema = z
  .object({
    schemas: z.array(z.string()).openapi({ example: ["urn:ietf:params:scim:api:messages:2.0:Error"] }),
    status: z.string().openapi({ example: "400", description: "The HTTP status, as a string" }),
    scimType: z
      .enum(["invalidFilter", "invalidSyntax", "invalidValue", "invalidPath", "noTarget", "uniqueness", "mutability", "tooMany"])
      .optional(),
    detail: z.string().openapi({ description: "A sentence for people; do not parse it" }),
  })
  .openapi("ScimError");

const DESCRIPTIONS = {
  400: "scimType says which: invalidFilter (a filter we cannot answer exactly), invalidValue (a bad attribute, or a body that fails its schema), invalidSyntax (an unknown op), invalidPath, noTarget, tooMany",
  401: "No SCIM token, an unknown or revoked one, or another kind of credential",
  404: "No such resource",
  409: "scimType uniqueness: the userName (email) or group displayName is taken",
  413: "The body is over 64 KiB",
  415: "The body is neither application/scim+json nor application/json",
} as const;

type ScimErrorStatus = keyof typeof DESCRIPTIONS;
type ScimErrorResponses<S extends ScimErrorStatus> = {
  [K in S]: { description: string; content: { "application/scim+json": { schema: typeof ScimErrorSchema } } };
};

export const scimErrors = <S extends ScimErrorStatus>(...statuses: S[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: DESCRIPTIONS[status],
        ...(status === 401 ? { headers: { "WWW-Authenticate": HEADER_REFS.wwwAuthenticate } } : {}),
        content: { [SCIM_MEDIA_TYPE]: { schema: ScimErrorSchema } },
      },
    ]),
  ) as unknown as ScimErrorResponses<S>;
