// SCIM discovery (RFC 7644 §4): what this provider supports, its resource types, and the attributes of the
// schemas it keeps (RFC 7643 §7). Identity providers read ServiceProviderConfig to decide how to talk to us
// (Entra and Okta send PATCH once it says patch is supported); the attributes listed are the ones we store.
import { SCIM_BASE, SCIM_SCHEMAS } from "../../lib/scim-wire";

export const MAX_FILTER_RESULTS = 200;

const meta = (origin: string, resourceType: string, path: string) => ({ resourceType, location: `${origin}${SCIM_BASE}/${path}` });

export const serviceProviderConfig = (origin: string) => ({
  schemas: [SCIM_SCHEMAS.serviceProviderConfig],
  documentationUri: `${origin}/api/v1/docs`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_FILTER_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "Bearer token",
      description: "A SCIM token (scim_…) a platform admin makes with POST /api/v1/admin/scim-tokens",
      primary: true,
    },
  ],
  meta: meta(origin, "ServiceProviderConfig", "ServiceProviderConfig"),
});

const resourceType = (origin: string, name: "User" | "Group", schema: string) => ({
  schemas: [SCIM_SCHEMAS.resourceType],
  id: name,
  name,
  endpoint: `/${name}s`,
  schema,
  meta: meta(origin, "ResourceType", `ResourceTypes/${name}`),
});

export const resourceTypes = (origin: string) => [
  resourceType(origin, "User", SCIM_SCHEMAS.user),
  resourceType(origin, "Group", SCIM_SCHEMAS.group),
];

interface Attribute {
  name: string;
  type: "string" | "boolean" | "complex" | "reference";
  multiValued?: boolean;
  required?: boolean;
  uniqueness?: "none" | "server";
  mutability?: "readOnly" | "readWrite";
  subAttributes?: Attribute[];
}

const attribute = (spec: Attribute): Record<string, unknown> => ({
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...spec,
  ...(spec.subAttributes ? { subAttributes: spec.subAttributes.map(attribute) } : {}),
});

const USER_ATTRIBUTES: Attribute[] = [
  { name: "userName", type: "string", required: true, uniqueness: "server" },
  {
    name: "name",
    type: "complex",
    subAttributes: ["formatted", "givenName", "familyName"].map((name) => ({ name, type: "string" as const })),
  },
  { name: "displayName", type: "string" },
  { name: "active", type: "boolean" },
  {
    name: "emails",
    type: "complex",
    multiValued: true,
    subAttributes: [
      { name: "value", type: "string" },
      { name: "type", type: "string" },
      { name: "primary", type: "boolean" },
    ],
  },
];

const GROUP_ATTRIBUTES: Attribute[] = [
  { name: "displayName", type: "string", required: true, uniqueness: "server" },
  {
    name: "members",
    type: "complex",
    multiValued: true,
    subAttributes: [
      { name: "value", type: "string" },
      { name: "display", type: "string", mutability: "readOnly" },
      { name: "$ref", type: "reference", mutability: "readOnly" },
    ],
  },
];

const schema = (origin: string, id: string, name: string, attributes: Attribute[]) => ({
  schemas: [SCIM_SCHEMAS.schema],
  id,
  name,
  attributes: attributes.map(attribute),
  meta: meta(origin, "Schema", `Schemas/${id}`),
});

export const schemas = (origin: string) => [
  schema(origin, SCIM_SCHEMAS.user, "User", USER_ATTRIBUTES),
  schema(origin, SCIM_SCHEMAS.group, "Group", GROUP_ATTRIBUTES),
];
