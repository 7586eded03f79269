// Issue 24, item 6: every free text an agent, device or user writes and another person reads goes through
// the display-name rule (lib/display-name.ts). A request field is refused (422, display-names.test.ts),
// except where a refusal would break a running agent: there the text is stored clean (SANITISED). This
// file lists every string field of every request body and fails on one nobody classified.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { createGateway, createNode, networkSetup, unique } from "../helpers/factories";
import { fetchDocument, type JsonSchema, operations } from "../fuzz/openapi-model";
import { unsafeCharacter } from "../../src/lib/display-name";
import { FIELDS, SCIM_FIELDS } from "./display-fields";

/** Written by a running agent: refusing would drop the whole report (its node's liveness and revisions). */
const SANITISED = new Set([
  "POST /agents/me/report nodes[].error",
  // An access rule's note: stored clean rather than refusing a whole policy document for one character.
  "PUT /networks/{id}/access-policy rules[].description",
  "POST /networks/{id}/access-policy/preview rules[].description",
]);

/** String fields that are not free text read by another person, by the field's path in its body, and why. */
const NOT_DISPLAY_TEXT: Record<string, string> = {
  password: "a secret: hashed, never shown",
  newPassword: "a secret: hashed, never shown",
  currentPassword: "a secret: compared, never shown",
  token: "a one-time token: compared by hash, never shown",
  refreshToken: "a secret: compared by hash, never shown",
  mfaToken: "a secret: compared, never shown",
  code: "a one-time code: compared, never shown",
  enrolmentKey: "a secret: compared by hash, never shown",
  groupId: "an id: looked up, an unknown one is refused",
  userId: "an id: looked up, an unknown one is refused",
  networkId: "an id: looked up, an unknown one is refused",
  regionId: "an id: looked up, an unknown one is refused",
  gatewayId: "an id: looked up, an unknown one is refused",
  "policyIds[]": "ids: looked up, unknown ones are refused",
  "gatewayPath[]": "node or pool ids: looked up, unknown ones are refused",
  "members[].nodeId": "an id: looked up, an unknown one is refused",
  "nodes[].nodeId": "an id: looked up on the agent's gateway, an unknown one is refused (404)",
  "nodes[].probes[].acrossNodeId": "an id: compared with the probes asked for, never stored or shown",
  "nodes[].probes[].target": "an address: compared with the probes asked for, never stored or shown",
  "gatewayEligibility.regionIds[]": "ids: looked up, unknown ones are refused",
  dnsDomain: "a DNS domain: label syntax",
  publicHost: "a host name or address: its syntax (core/net/endpoint.ts)",
  cidr: "CIDR syntax",
  destinationCidr: "CIDR syntax",
  address: "IP address syntax",
  endpoint: "host:port syntax (core/net/endpoint.ts)",
  "localEndpoints[]": "a literal IP:port: its syntax (isLiteralEndpoint, core/net/endpoint.ts)",
  "peers[].endpoint": "a literal IP:port: its syntax (isLiteralEndpoint)",
  "nodes[].peers[].endpoint": "a literal IP:port: its syntax (isLiteralEndpoint)",
  publicKey: "a WireGuard key: 32 bytes of base64",
  "peers[].publicKey": "a WireGuard key: 32 bytes of base64",
  "nodes[].peers[].publicKey": "a WireGuard key: 32 bytes of base64",
  "peerReport.removed[]": "WireGuard keys: 32 bytes of base64",
  "nodes[].peerReport.removed[]": "WireGuard keys: 32 bytes of base64",
  "POST /nodes name": "a DNS label: its syntax refuses every unsafe character",
  "PATCH /nodes/{id} name": "a DNS label: its syntax refuses every unsafe character",
  "PATCH /devices/{id} name": "a DNS label: its syntax refuses every unsafe character",
  "POST /client/devices name": "a DNS label: its syntax refuses every unsafe character",
  "POST /networks/{id}/dns/records name": "a DNS owner name: label syntax",
  "PUT /dns/records/{id} name": "a DNS owner name: label syntax",
  "POST /networks/{id}/dns/records value":
    "record data: A/AAAA/CNAME by syntax; TXT is machine-read data (SPF, DKIM), every byte outside printable ASCII escaped as \\DDD in the zone file",
  "PUT /dns/records/{id} value": "record data, as above",
  "POST /notifications/channels target": "a webhook URL or the owner's own address, read only by the channel's owner",
  "PATCH /notifications/channels/{id} target": "a webhook URL or the owner's own address, read only by the channel's owner",
  "tags[]": "an access tag: its syntax (tag:<name>, core/access-policy/selectors.ts)",
  "rules[].src[]": "an access selector: its syntax (core/access-policy/selectors.ts)",
  "rules[].dst[]": "an access selector: its syntax (core/access-policy/selectors.ts)",
  "rules[].ports[]": "a port spec: its syntax (core/access-policy/ports.ts)",
  "tests[].src": "an access selector: its syntax",
  "tests[].dst": "a selector or an address: a test naming anything else fails, and a failing test refuses the document",
  "tests[].port": "one flow: its syntax (core/access-policy/ports.ts)",
  "POST /scim/v2/Users active": 'a boolean (Entra spells it "True"/"False"): anything else is refused',
  "PUT /scim/v2/Users/{id} active": "a boolean, as above",
  "emails[].primary": 'a boolean (or Entra\'s "True"): compared, never stored',
  "emails[].type": "ignored: never stored or shown",
  "schemas[]": "SCIM schema URNs: ignored, never stored",
  "Operations[].op": "add, replace or remove in any case: anything else is refused (invalidSyntax)",
  "Operations[].path": "a SCIM attribute path: parsed, an unknown one is refused (invalidPath)",
  "members[].value": "user ids: looked up, unknown ones are refused",
};

const isText = (schema: JsonSchema) =>
  (Array.isArray(schema.type) ? schema.type : [schema.type]).includes("string") &&
  !schema.enum &&
  schema.const === undefined &&
  !schema.format;

/** Every string leaf of a body schema, as a path such as `nodes[].error`. */
function textLeaves(schema: JsonSchema | undefined, path = ""): string[] {
  if (!schema) return [];
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const own = [
    ...Object.entries(schema.properties ?? {}).flatMap(([key, value]) => textLeaves(value, path ? `${path}.${key}` : key)),
    ...(schema.items ? textLeaves(schema.items, `${path}[]`) : []),
    ...(path && isText(schema) ? [path] : []),
  ];
  return [...new Set([...own, ...variants.flatMap((variant) => textLeaves(variant, path))])].map((leaf) => leaf.replace(".[]", "[]"));
}

describe("issue 24 item 6: every free-text field is classified", () => {
  it("each string field of every request body is refused by the rule, stored clean by it, or named here with why it is not display text", async () => {
    const refused = new Set([
      ...FIELDS.map(([, method, template, , field]) => `${method} ${template.replace(/:[a-zA-Z]+|rp_none|gpl_none/g, "{id}")} ${field}`),
      ...SCIM_FIELDS.flatMap(([resource, field]) => [`POST /scim/v2/${resource} ${field}`, `PUT /scim/v2/${resource}/{id} ${field}`]),
    ]);
    const unclassified: string[] = [];
    for (const op of operations(await fetchDocument())) {
      for (const leaf of textLeaves(op.body)) {
        const key = `${op.method} ${op.path} ${leaf}`;
        if (refused.has(key) || SANITISED.has(key) || NOT_DISPLAY_TEXT[key] || NOT_DISPLAY_TEXT[leaf]) continue;
        unclassified.push(key);
      }
    }
    expect(unclassified).toEqual([]);
  });
});

describe("issue 24 item 6: a gateway agent's report error is stored and shown as one line of visible text", () => {
  const HOSTILE = [
    "team\r\nBcc: attacker@evil.test",
    "a\u0000b\tc\u007fd\u0085e",
    "invoice\u202Egpj.exe\u2066x\u2069",
    "ad\u200Bmin\u200D\u2060\uFEFF",
    "a\u2028b\u2029c",
    "a\uD800b\uDC00c",
  ];

  async function reportingAgent() {
    const { admin, network } = await networkSetup();
    const gateway = await createGateway(admin);
    const node = await createNode(admin, network.id, { gatewayId: gateway.id, endpoint: "198.51.100.30:51820" });
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: gateway.id }, admin.token);
    const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
    expect(enrolled.status, enrolled.text).toBe(201);
    const failing = async () => (await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing.failing;
    return { node, credential: enrolled.body.credential as string, failing };
  }

  it("accepts the report (a refusal would cost the node's liveness) and keeps none of the unsafe characters", async () => {
    const { node, credential, failing } = await reportingAgent();
    for (const hostile of HOSTILE) {
      const sent = await post(
        "/agents/me/report",
        { nodes: [{ nodeId: node.id, appliedRoutingRevision: 1, error: `apply failed: ${hostile} (end)` }] },
        credential,
      );
      expect(sent.status, sent.text).toBe(200);
      const [shown] = await failing();
      expect(shown.nodeId).toBe(node.id);
      expect(unsafeCharacter(shown.error), JSON.stringify(shown.error)).toBeNull();
      expect(shown.error).toMatch(/^apply failed: \S.*\(end\)$/);
      expect(shown.error).not.toContain("  ");
      const stored = await env.DB.prepare("SELECT apply_error AS error FROM nodes WHERE id = ?").bind(node.id).first<{ error: string }>();
      expect(stored?.error, "stored clean, not only shown clean").toBe(shown.error);
    }
    const multiline = await post(
      "/agents/me/report",
      { nodes: [{ nodeId: node.id, appliedRoutingRevision: 1, error: "ip: RTNETLINK answers:\n  File exists\u202E" }] },
      credential,
    );
    expect(multiline.status).toBe(200);
    expect(await failing()).toEqual([{ nodeId: node.id, error: "ip: RTNETLINK answers: File exists" }]);
  });

  it("shows an error stored before the rule (raw in D1) clean as well", async () => {
    const { node, failing } = await reportingAgent();
    await env.DB.prepare("UPDATE nodes SET apply_error = ? WHERE id = ?").bind("legacy\r\n\u202Eerror\u200B here", node.id).run();
    expect(await failing()).toEqual([{ nodeId: node.id, error: "legacy error here" }]);
  });
});
