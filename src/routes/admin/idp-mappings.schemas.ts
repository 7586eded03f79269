import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { Timestamp } from "../../lib/openapi";
import { GroupRoleSchema } from "../../schemas/groups";
import type { IdpGroupMapping } from "../../services/scim/mappings";

export const IdpGroupMappingSchema = z
  .object({
    id: z.string().openapi({ example: "idm_..." }),
    idpGroup: z
      .string()
      .openapi({ description: "The IdP group's displayName or externalId (a SCIM group), or an OIDC groups claim value" }),
    groupId: z.string().openapi({ example: "grp_..." }),
    role: GroupRoleSchema,
    createdAt: Timestamp,
  })
  .openapi("IdpGroupMapping");

export const IdpGroupMappingBody = z
  .strictObject({
    idpGroup: displayName({ min: 1, max: 254 }).openapi({ example: "Engineering" }),
    groupId: z.string().min(1).max(64).openapi({ example: "grp_..." }),
    role: GroupRoleSchema,
  })
  .openapi("CreateIdpGroupMapping");

export const presentMapping = (mapping: IdpGroupMapping) => ({
  id: mapping.id,
  idpGroup: mapping.idpGroup,
  groupId: mapping.groupId,
  role: mapping.role,
  createdAt: mapping.createdAt,
});
