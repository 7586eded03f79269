import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { fakePublicKey } from "../helpers/factories";
import { fetchDocument, operations } from "../fuzz/openapi-model";
import { changedTables, settle, snapshot } from "../fuzz/snapshot";
import { buildTenants, fill, type Tenants } from "./tenants";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API3:2023 Broken Object Property Level Authorization: a client can neither set properties it
 * does not own (mass assignment) nor read properties it must never see (hashes, credentials, secrets).
 */
type Who = "alice" | "admin";
const MASS_ASSIGNMENT: [Who, string, string, Record<string, unknown>, string][] = [
  ["admin", "POST", "/users", { email: "mass@example.com", password: "long enough password" }, "id"],
  ["admin", "POST", "/users", { email: "mass2@example.com", password: "long enough password" }, "passwordHash"],
  ["alice", "PATCH", "/users/me", { name: "x" }, "platformRole"],
  ["admin", "PATCH", "/users/:user", { name: "x" }, "email"],
  ["alice", "POST", "/networks", { groupId: ":group", name: "m", cidr: "10.99.0.0/24" }, "routingRevision"],
  ["alice", "PATCH", "/networks/:network", { name: "m" }, "groupId"],
  ["alice", "PATCH", "/networks/:network", { name: "m" }, "dnsRevision"],
  ["alice", "POST", "/nodes", { networkId: ":network", name: "m", publicKey: "KEY" }, "deviceId"],
  ["alice", "POST", "/nodes", { networkId: ":network", name: "m", publicKey: "KEY" }, "revision"],
  ["alice", "PATCH", "/nodes/:node", { name: "m" }, "networkId"],
  ["alice", "POST", "/networks/:network/dns/records", { name: "m", type: "A", value: "10.61.0.7" }, "networkId"],
  ["alice", "PUT", "/dns/records/:record", { name: "m", type: "A", value: "10.61.0.7" }, "revision"],
  ["alice", "POST", "/client/devices", { networkId: ":network", name: "m", publicKey: "KEY" }, "userId"],
  ["alice", "PATCH", "/devices/:device", { name: "m" }, "userId"],
  ["alice", "POST", "/networks/:network/enrolment-keys", { name: "m" }, "usedCount"],
  ["alice", "POST", "/networks/:network/enrolment-keys", { name: "m" }, "keyHash"],
  ["alice", "POST", "/groups/:group/invites", { email: "m@example.com", role: "viewer" }, "invitedBy"],
  ["alice", "POST", "/notifications/channels", { type: "email", events: ["node.offline"] }, "userId"],
  ["admin", "POST", "/regions", { name: "m" }, "id"],
  ["admin", "POST", "/agents/enrol", { token: "aet_x", name: "m" }, "regionId"],
  ["alice", "POST", "/auth/login", { email: "a@example.com", password: "x" }, "platformRole"],
];

/** Property names that only ever hold a hash, a sealed secret or a credential: never in any answer. */
const SECRET_KEYS = /"[A-Za-z]*(Hash|Sealed|Ciphertext|credential|privateKey)"\s*:/;

let t: Tenants;
let secrets: string[];
let scimToken: string;
beforeAll(async () => {
  t = await buildTenants();
  const issued = await post(
    "/agents/enrolment-tokens",
    { kind: "gateway-manager", regionId: (await post("/regions", { name: "sec-r" }, t.admin.token)).body.id },
    t.admin.token,
  );
  const agent = await post("/agents/enrol", { token: issued.body.token, name: "sec-agent" });
  const hook = await post(
    "/notifications/channels",
    { type: "webhook", target: "https://hooks.example.com/sec", events: ["node.offline"] },
    t.alice.token,
  );
  const mfa = await post("/auth/mfa/enroll", undefined, t.bob.token);
  // A first access policy revision, so GET …/access-policy/revisions/{revision} has one to return.
  const policy = await call("PUT", `/networks/${t.a.network}/access-policy`, { body: { rules: [], tests: [] }, token: t.alice.token });
  expect(policy.status, policy.text).toBe(200);
  const scim = await post("/admin/scim-tokens", { name: `api3-${Date.now().toString(36)}` }, t.admin.token);
  expect(scim.status, scim.text).toBe(201);
  scimToken = scim.body.token;
  secrets = [
    scimToken,
    t.alice.refreshToken,
    t.secrets.aliceDeviceToken,
    t.secrets.aliceKey,
    issued.body.token,
    agent.body.credential,
    hook.body.secret,
    mfa.body.secret,
    "a long enough password",
  ];
  expect(
    secrets.every((s) => typeof s === "string" && s.length >= 16),
    JSON.stringify(secrets),
  ).toBe(true);
  await settle();
}, 60_000);

describe("API3 mass assignment: unknown properties are refused, not ignored", () => {
  it.each(MASS_ASSIGNMENT)("%s %s %s with %j plus %s is 422 naming it, and changes nothing", async (who, method, template, base, field) => {
    const before = await snapshot();
    const body = JSON.parse(fill(JSON.stringify(base), t).replace("KEY", fakePublicKey()));
    body[field] = field === "usedCount" ? -1000 : field.endsWith("Revision") || field === "revision" ? 999 : `${field}-chosen-by-client`;
    const response = await call(method, fill(template, t), { token: (who === "admin" ? t.admin : t.alice).token, body });
    expectError(response, 422, "VALIDATION_ERROR");
    expect(response.body.error.fields.map((f: { path: string }) => f.path)).toContain(field);
    expect(changedTables(before, await snapshot())).toEqual([]);
  });
});

describe("API3 excessive data exposure: secrets are shown once, stored hashed, never read back", () => {
  it("no GET route in the document returns a secret or a hash property, to the owner or a platform admin", async () => {
    // `/devices/{id}` takes Alice's device id; `{keyId}` her key; a kind she has none of gets a dead id.
    const byKind: Record<string, string> = {
      ...t.a,
      deliverie: t.a.delivery!,
      keyId: t.a.key!,
      inviteId: t.a.invite!,
      userId: t.alice.userId,
      provider: "github",
      revision: "1",
    };
    const statuses: Record<string, number> = {};
    let checked = 0;
    for (const op of operations(await fetchDocument()).filter((o) => o.method === "GET")) {
      const path = op.path.replace(
        /\{(\w+)\}/g,
        (_, name: string) => byKind[name === "id" ? op.path.split("/{id}")[0]!.split("/").at(-1)!.replace(/s$/, "") : name] ?? "none",
      );
      // The two reads whose query is required ask about Alice's device node.
      const query = path.endsWith("/access-sources")
        ? `?dst=${t.a.node}`
        : path.endsWith("/access-check")
          ? `?src=${t.a.node}&dst=${t.a.node}&port=tcp:22`
          : "";
      // The SCIM routes are read as the directory's client: its token, not a person's, gets their data.
      const readers = op.path.startsWith("/scim/v2/") ? [scimToken] : [t.alice.token, t.admin.token];
      for (const token of readers) {
        const response = await get(`${path}${query}`, token);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        checked += 1;
        for (const secret of secrets) expect(response.text, `${path} leaks a secret`).not.toContain(secret);
        expect(response.text, `${path} shows a hash or credential property`).not.toMatch(SECRET_KEYS);
      }
    }
    expect(checked).toBeGreaterThan(80);
    // Most reads must really return data, or the scan above proves little (agent-only and admin-only
    // routes answer Alice 401/403).
    expect(statuses[200], JSON.stringify(statuses)).toBeGreaterThan(checked * 0.7);
  });

  it("enrolment keys, devices, channels and invites carry no secret-bearing property when read back", async () => {
    const keys = await get(`/networks/${t.a.network}/enrolment-keys`, t.alice.token);
    expect(Object.keys(keys.body.items[0]).sort()).not.toContain("key");
    const device = await get(`/devices/${t.a.device}`, t.alice.token);
    expect(device.body).not.toHaveProperty("deviceToken");
    const channels = await get("/notifications/channels", t.alice.token);
    for (const channel of channels.body.items) expect(channel).not.toHaveProperty("secret");
    const invites = await get(`/groups/${t.a.group}/invites`, t.alice.token);
    expect(invites.body.items[0]).not.toHaveProperty("token");
  });

  it("no plaintext secret is stored anywhere in D1 (only hashes and sealed values)", async () => {
    const dump = [...(await snapshot()).values()].join("\n");
    for (const secret of secrets) expect(dump.includes(secret), `a stored row holds ${secret.slice(0, 8)}…`).toBe(false);
    const tables = await env.DB.prepare("select name from sqlite_master where type = 'table'").all<{ name: string }>();
    expect(tables.results.length).toBeGreaterThan(20);
  });
});
