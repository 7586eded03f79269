// The SCIM routes' request and answer shapes. Bodies are loose objects: identity providers send attributes we
// do not keep (phoneNumbers, the enterprise extension, schemas) and RFC 7644 says a provider ignores those; what
// we read is checked by `services/scim/user-resource.ts` and `services/scim/group-patch.ts` with SCIM's own error words.
import { z } from "@hono/zod-openapi";
import { SCIM_MEDIA_TYPE } from "../../lib/scim-wire";

/** RFC 7644 §3.1: clients send application/scim+json; many send application/json. Both are read. */
export const scimBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { [SCIM_MEDIA_TYPE]: { schema }, "application/json": { schema } },
});

export const scimResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { [SCIM_MEDIA_TYPE]: { schema } },
});

/** An answer in SCIM's media type (RFC 7644 §3.1). */
export const SCIM_HEADERS = { "Content-Type": SCIM_MEDIA_TYPE } as const;

export const MAX_SCIM_PAGE = 200;

/** RFC 7644 §3.4.2.4: startIndex below 1 is read as 1, count below 0 as 0; more than the page limit as the limit. */
export const ScimListQuery = z.object({
  filter: z
    .string()
    .max(1_000)
    .optional()
    .openapi({ example: 'userName eq "ada@example.com"', description: 'eq on a string attribute, joined by "and"' }),
  startIndex: z.coerce.number().int().optional().openapi({ description: "1-based; default 1" }),
  count: z.coerce
    .number()
    .int()
    .optional()
    .openapi({ description: `Page size; default and at most ${MAX_SCIM_PAGE}` }),
  attributes: z.string().max(1_000).optional().openapi({ description: "Accepted; every attribute is returned" }),
  excludedAttributes: z.string().max(1_000).optional().openapi({ description: '"members" leaves a group\'s members out' }),
});

export const ScimUserBody = z
  .looseObject({
    userName: z
      .string()
      .openapi({ example: "ada@example.com", description: "The sign-in email (or a UPN, with a primary email in emails)" }),
    externalId: z.string().optional(),
    active: z.union([z.boolean(), z.string()]).optional().openapi({ description: 'true/false; Entra\'s "True"/"False" are read too' }),
    name: z
      .looseObject({ givenName: z.string().optional(), familyName: z.string().optional(), formatted: z.string().optional() })
      .optional(),
    displayName: z.string().optional(),
    emails: z
      .array(z.looseObject({ value: z.string(), primary: z.union([z.boolean(), z.string()]).optional(), type: z.string().optional() }))
      .max(20)
      .optional(),
  })
  .openapi("ScimUserInput");

export const ScimGroupBody = z
  .looseObject({
    displayName: z.string().min(1).max(254).openapi({ example: "Engineering" }),
    externalId: z.string().max(254).optional(),
    members: z.array(z.looseObject({ value: z.string() })).optional(),
  })
  .openapi("ScimGroupInput");

export const ScimPatchBody = z
  .looseObject({
    schemas: z.array(z.string()).optional(),
    Operations: z
      .array(z.looseObject({ op: z.string(), path: z.string().max(1_000).optional(), value: z.unknown().optional() }))
      .min(1)
      .openapi({ description: "RFC 7644 §3.5.2; ops add, replace, remove in any case" }),
  })
  .openapi("ScimPatchOp");

const Meta = z.object({ resourceType: z.string(), created: z.string(), lastModified: z.string(), location: z.string() });

export const ScimUserSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string().openapi({ example: "usr_..." }),
    externalId: z.string().optional(),
    userName: z.string(),
    name: z.object({ formatted: z.string(), givenName: z.string().optional(), familyName: z.string().optional() }),
    displayName: z.string(),
    emails: z.array(z.object({ value: z.string(), primary: z.boolean(), type: z.string() })),
    active: z.boolean(),
    meta: Meta,
  })
  .openapi("ScimUser");

export const ScimGroupSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string().openapi({ example: "idg_..." }),
    displayName: z.string(),
    externalId: z.string().optional(),
    members: z.array(z.object({ value: z.string(), display: z.string(), $ref: z.string() })).optional(),
    meta: Meta,
  })
  .openapi("ScimGroup");

export const scimListOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      schemas: z.array(z.string()),
      totalResults: z.number().int(),
      startIndex: z.number().int(),
      itemsPerPage: z.number().int(),
      Resources: z.array(item),
    })
    .openapi(name);

/** Discovery documents (RFC 7644 §4) are fixed: described, not modelled field by field. */
export const ScimDocument = z.record(z.string(), z.unknown()).openapi("ScimDocument");

export const ScimIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, description: "The resource's id (usr_… or idg_…)" }),
});
