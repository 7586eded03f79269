// SCIM 2.0's own wire words (RFC 7643, RFC 7644): the schema URNs, its media type and its error body. The SCIM
// routes answer in them, error bodies included, because identity providers' SCIM clients parse nothing else
// (DESIGN.md, "Identity from the organisation's directory": a documented departure from the error envelope).
import { API_BASE } from "./api-base";
import type { ApiError } from "./errors";

export const SCIM_BASE = `${API_BASE}/scim/v2`;
export const SCIM_MEDIA_TYPE = "application/scim+json";

export const SCIM_SCHEMAS = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterpriseUser: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

export const isScimPath = (path: string) => path === SCIM_BASE || path.startsWith(`${SCIM_BASE}/`);

/**
 * An error as SCIM says it: `status` as a string, `scimType` for a 400 (and a 409 of uniqueness), `detail` the same sentence the
 * envelope would carry. Our 422 (a body that failed its schema) is SCIM's 400 invalidValue.
 */
export function scimErrorBody(error: ApiError): { status: number; body: Record<string, unknown> } {
  const status = error.status === 422 ? 400 : error.status;
  // A 409 says uniqueness only when it is one (a sole owner's deletion is a conflict of another kind).
  const scimType = error.scimType ?? (status === 400 ? "invalidValue" : undefined);
  const fields = error.fields?.map((field) => (field.path ? `${field.path}: ${field.message}` : field.message)).join("; ");
  const detail = fields ? `${error.message} (${fields})` : error.message;
  return { status, body: { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail } };
}
