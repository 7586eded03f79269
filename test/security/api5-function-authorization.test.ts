import { beforeAll, describe, expect, it } from "vitest";
import { call, post } from "../helpers/api";
import {
  addMember,
  createNode,
  createUser,
  enrolDevice,
  fakePublicKey,
  gatewayNetwork,
  signInAdmin,
  type Session,
} from "../helpers/factories";
import { fetchDocument, operations, type Operation } from "../fuzz/openapi-model";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API5:2023 Broken Function Level Authorization: platform-admin functions refuse users (403),
 * group-admin functions refuse viewers and members (403), and each kind of credential (anonymous,
 * device, agent) reaches only the functions meant for it (401 elsewhere).
 */
let admin: Session;
let plain: Session;
let roles: Record<"viewer" | "member" | "admin", Session>;
let ids: Record<string, string>;
let deviceToken: string;
let agentToken: string;

beforeAll(async () => {
  admin = await signInAdmin();
  plain = await createUser(admin);
  roles = { viewer: await createUser(admin), member: await createUser(admin), admin: await createUser(admin) };
  const {
    group,
    network,
    hops: [gw],
  } = await gatewayNetwork(admin, 1);
  for (const [role, session] of Object.entries(roles)) await addMember(group.id, session, role);
  const node = await createNode(admin, network.id);
  const policy = await post(
    `/networks/${network.id}/routing-policies`,
    { name: "p", type: "via_gateway", destinationCidr: "192.168.9.0/24", gatewayPath: [gw!.id] },
    admin.token,
  );
  const record = await post(`/networks/${network.id}/dns/records`, { name: "db", type: "A", value: "10.0.0.1" }, admin.token);
  const region = await post("/regions", { name: "bfla" }, admin.token);
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-manager", regionId: region.body.id }, admin.token);
  const agent = await post("/agents/enrol", { token: issued.body.token, name: "bfla" });
  agentToken = agent.body.credential;
  deviceToken = (await enrolDevice(admin, { networkId: network.id, publicKey: fakePublicKey() })).deviceToken;
  ids = {
    group: group.id,
    network: network.id,
    node: node.id,
    policy: policy.body.id,
    record: record.body.id,
    region: region.body.id,
    gateway: gw!.id,
    agent: agent.body.agent.id,
    admin: admin.userId,
  };
}, 60_000);

const fill = (path: string) => path.replace(/:(\w+)/g, (_, kind: string) => ids[kind]!);

describe("API5 platform-admin functions refuse ordinary users", () => {
  it.each([
    ["POST", "/users", { email: "x@example.com", password: "long enough password", platformRole: "admin" }],
    ["GET", "/users"],
    ["POST", "/regions", { name: "r" }],
    ["PATCH", "/regions/:region", { name: "r2" }],
    ["DELETE", "/regions/:region"],
    ["POST", "/gateways", { regionId: ":region", name: "g" }],
    ["POST", "/agents/enrolment-tokens", { kind: "gateway-manager", regionId: ":region" }],
    ["POST", "/agents/:agent/revoke"],
    ["GET", "/admin/settings"],
    ["PUT", "/admin/settings", {}],
  ] as [string, string, unknown?][])("%s %s as a user is 403", async (method, path, body) => {
    const response = await call(method, fill(path), { token: plain.token, body: body && JSON.parse(fill(JSON.stringify(body))) });
    expect(response.status, response.text).toBe(403);
    expect(response.body.error.code).toBe("forbidden");
  });

  it("another user's account does not exist for a user (404), and a user cannot promote itself", async () => {
    expectError(await call("PATCH", `/users/${admin.userId}`, { token: plain.token, body: { disabled: true } }), 404, "not_found");
    expectError(await call("DELETE", `/users/${admin.userId}`, { token: plain.token }), 404, "not_found");
    expectError(await call("PATCH", `/users/${plain.userId}`, { token: plain.token, body: { platformRole: "admin" } }), 403, "forbidden");
    expectError(await call("PATCH", "/users/me", { token: plain.token, body: { platformRole: "admin" } }), 422, "VALIDATION_ERROR");
  });
});

describe("API5 group functions follow the role: viewer < member < admin < owner", () => {
  const MANAGE: [string, string, unknown?][] = [
    ["PATCH", "/groups/:group", { name: "x" }],
    ["DELETE", "/groups/:group"],
    ["POST", "/groups/:group/members", { userId: ":admin", role: "viewer" }],
    ["POST", "/groups/:group/invites", { email: "i@example.com", role: "viewer" }],
    ["GET", "/groups/:group/invites"],
    ["POST", "/networks", { groupId: ":group", name: "n2", cidr: "10.201.0.0/24" }],
    ["PATCH", "/networks/:network", { name: "x" }],
    ["DELETE", "/networks/:network"],
    ["POST", "/nodes", { networkId: ":network", name: "n", publicKey: "KEY" }],
    ["PATCH", "/nodes/:node", { name: "x" }],
    ["DELETE", "/nodes/:node"],
    ["PUT", "/routing-policies/:policy", { name: "x", type: "via_gateway", destinationCidr: "192.168.8.0/24", gatewayPath: [":gateway"] }],
    ["DELETE", "/routing-policies/:policy"],
    ["POST", "/networks/:network/dns/records", { name: "x", type: "A", value: "10.0.0.2" }],
    ["DELETE", "/dns/records/:record"],
    ["POST", "/networks/:network/enrolment-keys", { name: "k" }],
    ["GET", "/networks/:network/enrolment-keys"],
  ];
  const cases = (["viewer", "member"] as const).flatMap((role) => MANAGE.map(([m, p, b]) => [role, m, p, b] as const));

  it.each(cases)("a %s: %s %s is 403", async (role, method, path, body) => {
    const filled = body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body)).replace("KEY", fakePublicKey()));
    const response = await call(method, fill(path), { token: roles[role].token, body: filled });
    expectError(response, 403, "forbidden");
  });

  it("a member enrols devices, a viewer does not; a group admin cannot hand out or take the owner role", async () => {
    expect(
      (await post("/client/devices", { networkId: ids.network, name: "m-dev", publicKey: fakePublicKey() }, roles.member.token)).status,
    ).toBe(201);
    expectError(
      await post("/client/devices", { networkId: ids.network, name: "v-dev", publicKey: fakePublicKey() }, roles.viewer.token),
      403,
      "forbidden",
    );
    expectError(await post(`/groups/${ids.group}/members`, { userId: plain.userId, role: "owner" }, roles.admin.token), 403, "forbidden");
    expectError(
      await call("PATCH", `/groups/${ids.group}/members/${roles.member.userId}`, { token: roles.admin.token, body: { role: "owner" } }),
      403,
      "forbidden",
    );
    expectError(await post(`/groups/${ids.group}/invites`, { email: "o@example.com", role: "owner" }, roles.admin.token), 403, "forbidden");
  });
});

describe("API5 each credential reaches only its own functions (every route of the document)", () => {
  let ops: Operation[];
  beforeAll(async () => {
    ops = operations(await fetchDocument());
  });
  /** Placeholders are enough: authentication runs before any lookup. */
  const pathOf = (op: Operation) => op.path.replace(/\{\w+\}/g, "x_1");
  const optional = (op: Operation) => ["/client/devices", "/auth/invites/accept"].includes(op.path);

  it("every protected route answers 401 to anonymous callers, device credentials and (off /agents/me) agent credentials", async () => {
    const protectedOps = ops.filter((op) => op.secured && !optional(op));
    expect(protectedOps.length).toBeGreaterThan(70);
    for (const op of protectedOps) {
      const agentRoute = op.path.startsWith("/agents/me");
      // A device's credential is for its own routes, and for its own node's paths (`wgo status`; another node: 404).
      const deviceRoute = op.path.startsWith("/client/devices/") || op.path === "/nodes/{id}/paths";
      const tokens: (string | undefined)[] = [undefined, ...(deviceRoute ? [] : [deviceToken]), ...(agentRoute ? [] : [agentToken])];
      if (agentRoute) tokens.push(admin.token);
      // The SCIM routes take a SCIM token and nothing else: an admin's token is refused too, in SCIM's body.
      const scimRoute = op.path.startsWith("/scim/v2/");
      if (scimRoute) tokens.push(admin.token);
      for (const token of tokens) {
        const response = await call(op.method, pathOf(op), { token, body: op.body ? {} : undefined });
        if (!scimRoute) expectError(response, 401, "unauthorized");
        else
          expect(response.body, response.text).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "401" });
        expect(response.status, `${op.method} ${op.path}`).toBe(401);
      }
    }
  });
});
