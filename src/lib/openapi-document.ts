import type { OpenAPIHono } from "@hono/zod-openapi";
import { HEADER_COMPONENTS, HEADER_REFS } from "./openapi-headers";

type Registry = OpenAPIHono["openAPIRegistry"];

/** The three kinds of bearer credential, and the metrics token; each route lists the one(s) it accepts (lib/openapi.ts SECURITY). */
const SECURITY_SCHEMES = {
  userAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A user's access token: the accessToken of POST /auth/login (or /auth/mfa/verify, /auth/refresh, an OAuth sign-in). Short-lived; renew it with the refresh token. Logout, disabling the user and role changes end it at once.",
  },
  deviceAuth: {
    type: "http",
    scheme: "bearer",
    description:
      "A managed device's own credential (dvc_…), returned once by POST /client/devices (enrolment). Used by the /client/devices/{id}/… routes; deleting the device revokes it.",
  },
  agentAuth: {
    type: "http",
    scheme: "bearer",
    description:
      "An agent's own credential (agc_…), returned by POST /agents/enrol for a single-use enrolment token. Used by the /agents/me/… routes; revoking or rotating it takes effect at once. Gateway-manager and gateway-daemon agents each reach only their own routes (403 otherwise).",
  },
  metricsAuth: {
    type: "http",
    scheme: "bearer",
    description: "The metrics token (`mtk_…`) a platform admin issues with POST /admin/metrics-token: reads GET /metrics only.",
  },
  scimAuth: {
    type: "http",
    scheme: "bearer",
    description:
      "A SCIM token (`scim_…`) a platform admin makes with POST /admin/scim-tokens, for an identity provider's SCIM client: the /scim/v2 routes only; revoking it refuses it at once.",
  },
} as const;

/** Tags in the order a reader meets them: sign in, organise, build a network, connect, operate. */
const TAGS = [
  ["Auth", "Sign in with a password, refresh and end sessions, reset a forgotten password."],
  ["MFA", "TOTP multi-factor authentication with recovery codes, and the second step of a sign-in."],
  ["OAuth", "Sign in with GitHub, Google or an OIDC provider (linked to an existing account; never creates one)."],
  ["Users", "The signed-in user, and user accounts (platform admins)."],
  ["Groups", "Groups own networks; members have a role in each (owner, admin, member, viewer)."],
  ["Invites", "Invite an email address into a group; accepting creates the account or joins the existing one."],
  ["Networks", "Overlay networks: a CIDR and a DNS domain in a group, their runtime status."],
  ["Nodes", "Members of a network with an overlay address and a WireGuard key; their generated configuration."],
  ["Routing policies", "Send a destination's traffic through a path of gateway nodes or pools (via_gateway)."],
  [
    "Access policies",
    "Who may reach whom in a network: the policy document with its tests, preview, and one flow's decision (docs/access.md).",
  ],
  ["Gateway pools", "One hop of a gateway path with health-checked failover between gateway nodes."],
  ["DNS", "Manual DNS records of a network, and its generated zone file and CoreDNS configuration."],
  ["Managed client", "Device enrolment (user token or enrolment key), config and heartbeat for wgo and other clients."],
  ["Devices", "Managed devices: rename, remove, choose which routing policies apply."],
  ["Tunnels", "Tunnels as the nodes report them in heartbeats: last handshake, traffic, state."],
  ["Regions", "Regions of the shared gateway inventory (platform admins change them)."],
  ["Gateways", "The shared inventory of gateway hosts that gateway nodes run on."],
  ["Agents", "Gateway-manager and gateway-daemon agents: enrolment, their own routes, the inventory of them."],
  ["Notifications", "Email and webhook channels, the events they receive, and delivery state."],
  ["Audit", "Who changed what, and when."],
  ["Admin", "Platform settings, SCIM tokens and IdP group mappings (platform admins)."],
  [
    "SCIM",
    "SCIM 2.0 (RFC 7643, RFC 7644) for an identity provider's provisioning client: people and the directory's groups, with SCIM's own error body (docs/identity.md).",
  ],
  ["Metrics", "Prometheus metrics of the fleet (docs/metrics.md) and the metrics token Prometheus scrapes with."],
  ["Health", "Liveness and readiness probes."],
  ["Development", "Development-only helpers; absent (404) in production."],
] as const;

export function registerDocumentComponents(registry: Registry) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent("securitySchemes", name, scheme);
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) registry.registerComponent("headers", name, header);
}

export const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "WireGuard overlay control plane",
    version: "1.0.0",
    description:
      "Accounts, groups, networks, nodes, routing policies, DNS and generated WireGuard configuration. " +
      "Four bearer credentials exist (userAuth, deviceAuth, agentAuth, and metricsAuth for GET /metrics); each " +
      "operation lists the ones it accepts, and `security: []` marks the public ones. Errors share one envelope, " +
      "`{ error: { code, message, fields? } }`, with one schema per status naming its codes. Every response carries X-Request-Id.",
  },
  // Relative: the API is served by the origin that serves this document (its paths carry /api/v1).
  servers: [{ url: "/", description: "The origin serving this document" }],
  tags: TAGS.map(([name, description]) => ({ name, description })),
};

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };
type Document = { paths?: Record<string, Record<string, Operation>> };

/** Every response carries X-Request-Id (middleware/request-id.ts runs on every route), so the document says so once, here. */
export function withRequestIdHeaders<D extends object>(generated: D): D {
  const doc = generated as Document;
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = { "X-Request-Id": HEADER_REFS.requestId, ...response.headers };
      }
    }
  }
  return generated;
}
