// Every request body field that holds a display name or free text and is refused (422) when it carries a
// control, bidirectional-formatting, zero-width or surrogate character (lib/display-name.ts displayName).
// display-names.test.ts sends hostile values to each; display-text.test.ts checks the list is complete.

export type Who = "alice" | "admin" | "agent" | "anonymous";
/** [who, method, path, a valid body, the display field]: every request body that carries a display name or free text. */
export const FIELDS: [Who, string, string, Record<string, unknown>, string][] = [
  ["admin", "POST", "/users", { email: "dn@example.com", password: "long enough password", name: "x" }, "name"],
  ["admin", "PATCH", "/users/:user", { name: "x" }, "name"],
  ["admin", "POST", "/admin/scim-tokens", { name: "x" }, "name"],
  ["admin", "POST", "/admin/idp-group-mappings", { idpGroup: "x", groupId: "grp_x", role: "member" }, "idpGroup"],
  ["alice", "PATCH", "/users/me", { name: "x" }, "name"],
  ["alice", "POST", "/groups", { name: "x" }, "name"],
  ["alice", "PATCH", "/groups/:group", { name: "x" }, "name"],
  ["alice", "POST", "/networks", { groupId: ":group", name: "x", cidr: "10.63.0.0/24" }, "name"],
  ["alice", "PATCH", "/networks/:network", { name: "x" }, "name"],
  ["alice", "PUT", "/networks/:network", { name: "x", cidr: "10.61.0.0/24", dnsDomain: "dn.internal" }, "name"],
  [
    "alice",
    "POST",
    "/networks/:network/routing-policies",
    { name: "x", type: "via_gateway", destinationCidr: "192.168.9.0/24", gatewayPath: ["node_x"] },
    "name",
  ],
  [
    "alice",
    "PUT",
    "/routing-policies/rp_none",
    { name: "x", type: "via_gateway", destinationCidr: "192.168.9.0/24", gatewayPath: ["node_x"] },
    "name",
  ],
  ["alice", "POST", "/networks/:network/enrolment-keys", { name: "x" }, "name"],
  // The hostile name is refused before the members are looked at (node_x need not exist).
  ["alice", "POST", "/networks/:network/gateway-pools", { name: "x", members: [{ nodeId: "node_x", priority: 1 }] }, "name"],
  ["alice", "PATCH", "/gateway-pools/gpl_none", { name: "x" }, "name"],
  [
    "alice",
    "POST",
    "/client/devices",
    { networkId: ":network", name: "dn-dev", publicKey: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", platform: "x" },
    "platform",
  ],
  [
    "alice",
    "POST",
    "/client/devices",
    { networkId: ":network", name: "dn-dev", publicKey: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", clientVersion: "x" },
    "clientVersion",
  ],
  ["admin", "POST", "/regions", { name: "x" }, "name"],
  ["admin", "POST", "/regions", { name: "r", description: "x" }, "description"],
  ["admin", "PATCH", "/regions/:region", { name: "x" }, "name"],
  ["admin", "PATCH", "/regions/:region", { description: "x" }, "description"],
  ["admin", "POST", "/gateways", { regionId: ":region", name: "x" }, "name"],
  ["admin", "PATCH", "/gateways/:gateway", { name: "x" }, "name"],
  ["anonymous", "POST", "/agents/enrol", { token: "aet_none", name: "x" }, "name"],
  ["anonymous", "POST", "/agents/enrol", { token: "aet_none", name: "a", version: "x" }, "version"],
  ["agent", "PATCH", "/agents/me", { version: "x" }, "version"],
  ["agent", "POST", "/agents/me/gateways", { name: "x" }, "name"],
  ["agent", "PATCH", "/agents/me/gateways/:agw", { name: "x" }, "name"],
  ["anonymous", "POST", "/auth/invites/accept", { token: "inv_none", password: "long enough password", name: "x" }, "name"],
];

/**
 * The SCIM routes' display text: refused by the same rule, in SCIM's words (400 invalidValue), by POST and PUT
 * (test/scim/scim-protocol.test.ts sends hostile values to each; a PATCH's values go through the same check).
 * [resource, the field's path in its body].
 */
export const SCIM_FIELDS: ["Users" | "Groups", string][] = [
  ["Users", "userName"],
  ["Users", "externalId"],
  ["Users", "name.givenName"],
  ["Users", "name.familyName"],
  ["Users", "name.formatted"],
  ["Users", "displayName"],
  ["Users", "emails[].value"],
  ["Groups", "displayName"],
  ["Groups", "externalId"],
];
