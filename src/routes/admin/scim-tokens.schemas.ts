import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import type { ScimToken } from "../../services/scim/tokens";

export const ScimTokenSchema = z
  .object({
    id: z.string().openapi({ example: "sct_..." }),
    name: z.string().openapi({ description: "The directory that uses it; SCIM changes are audited as scim:<name>" }),
    status: z.enum(["active", "revoked"]),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable().openapi({
      description: "The last SCIM request it authenticated (kept to the minute); null until one does",
    }),
    revokedAt: Timestamp.nullable(),
  })
  .openapi("ScimToken");

export const ScimTokenBody = z
  .strictObject({
    name: displayName({ min: 1, max: 64 }).openapi({ example: "okta", description: "Unique for good: a revoked token keeps its name" }),
  })
  .openapi("CreateScimToken");

export const IssuedScimTokenSchema = ScimTokenSchema.extend({
  token: z.string().openapi({
    example: "scim_...",
    description: "The bearer token for the identity provider's SCIM client: shown only here, stored only as a hash",
  }),
}).openapi("IssuedScimToken");

export const presentScimToken = (token: ScimToken) => ({
  id: token.id,
  name: token.name,
  status: token.revokedAt ? ("revoked" as const) : ("active" as const),
  createdAt: token.createdAt,
  lastUsedAt: token.lastUsedAt,
  revokedAt: token.revokedAt,
});
